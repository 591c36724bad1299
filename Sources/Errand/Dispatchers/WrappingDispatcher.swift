/// A dispatcher that sends through another one: every policy of this module, and a dispatcher
/// of your own that wraps another.
///
/// Conforming lets the policies outside it see the chain beneath it. A cache, a coalescer, a
/// retry or a queue outside the auth policy must know which session the auth policy will sign
/// a request in, so that a request made for one user is never answered with another's data.
/// A wrapping dispatcher of your own that does not conform hides what is beneath it: the
/// policies outside it then treat the requests as the credentials they can see describe them.
public protocol WrappingDispatcher: NetworkDispatcher {
    /// The dispatcher this one sends through.
    var base: any NetworkDispatcher { get }
}

/// Stamps a request with the session the auth policy beneath a policy will sign it in, so that
/// it is signed in that session or fails with `sessionEnded`, however long it waits first.
///
/// Found once, when the policy is made, by walking the chain of ``WrappingDispatcher``s to the
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

extension NetworkDispatcher {
    /// Dispatches `request` and hands its outcome to `observe` just before the caller's callback,
    /// on the same thread: the shape of a policy that watches requests go by (metrics, a flight
    /// recorder, a queue's slot) without changing them.
    ///
    /// - Parameters:
    ///   - request: The request, sent as it is.
    ///   - onSuccess: The caller's success callback, called after `observe`.
    ///   - onError: The caller's failure callback, called after `observe`.
    ///   - observe: Sees the response or the failure first.
    /// - Returns: What cancels the request.
    package func dispatch(
        request: RequestData,
        onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void,
        observing observe: @escaping @Sendable (Result<NetworkResponse, NetworkError>) -> Void
    ) -> any Cancellable {
        dispatch(
            request: request,
            onSuccess: { response in
                observe(.success(response))
                onSuccess(response)
            },
            onError: { error in
                observe(.failure(error))
                onError(error)
            })
    }
}
