import Errand

/// Stamps a request with the session the auth policy beneath a policy will sign it in, so that
/// it is signed in that session or fails with `sessionEnded`, however long it waits first.
///
/// Found once, when the policy is made, by walking the chain of `WrappingDispatcher`s to the
/// first ``AuthenticatingDispatcher``.
struct SessionStamper: Sendable {
    private let session: TokenSession?

    init(below base: any NetworkDispatcher) {
        var next: any NetworkDispatcher = base
        var found: TokenSession?
        // Bounded, in case a dispatcher of the app's own names itself as its base.
        for _ in 0..<64 {
            if let auth = next as? AuthenticatingDispatcher {
                found = auth.session
                break
            }
            guard let wrapping = next as? any WrappingDispatcher else { break }
            next = wrapping.base
        }
        session = found
    }

    /// A stamper for the auth policy whose session is `session`.
    init(session: TokenSession) {
        self.session = session
    }

    /// `request`, stamped with the current session when the auth policy beneath will sign it
    /// and no policy further out stamped it already.
    func stamped(_ request: RequestData) -> RequestData {
        guard let session, request.session == nil, TokenSession.signs(request) else { return request }
        var request = request
        request.session = session.ledger.stamp
        return request
    }
}
