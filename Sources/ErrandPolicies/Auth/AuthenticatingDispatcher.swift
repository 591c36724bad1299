import Errand
import Foundation

/// A dispatcher that sends `Authorization: Bearer <token>` from a ``TokenStorage`` and renews
/// the token when it expires or is refused. Made with
/// ``Errand/NetworkDispatcher/authenticating(storage:refresh:onSessionExpired:leeway:maximumRefreshes:within:now:)-(_,(TokenPair,Self)->TokenPair,_,_,_,_,_)``.
///
/// ```swift
/// let api = URLSessionDispatcher(baseURL: baseURL).authenticating(storage: storage) { tokens, transport in
///     let refresh = RequestData.post("/token").body(
///         .form(["grant_type": "refresh_token", "refresh_token": tokens.refreshToken ?? ""]))
///     let answer = try await Request<OAuthTokenResponse>(refresh).execute(dispatcher: transport)
///     return answer.tokenPair(replacing: tokens)
/// }
/// ```
///
/// - Requests marked `.none` (login, the refresh call itself) and requests that set their own
///   `Authorization` pass through untouched. `.optional` (the default) attaches a token when
///   there is one; `.required` fails with `sessionExpired` when there is none.
/// - A token that expires within the leeway is refreshed before it is sent.
/// - On a 401, exactly one refresh runs for any number of concurrent 401s, across every auth
///   policy on the same storage object (an app with two APIs, `withAuth` twice): the refresh is
///   the storage's, not the policy's. Each request is sent again once with the new token. A
///   request refused with a token that has already been replaced is sent again with the current
///   one and starts no refresh.
/// - Every request belongs to the session it was made in: a sign-in, a sign-out and an expiry
///   each start a new one, a refresh continues it. A request whose session ends before it is
///   answered (a 401 waiting for a refresh while the user signs out or another user signs in)
///   fails with `sessionEnded` instead of being sent with the next session's token.
/// - A refresh stores its tokens only over the pair it renewed (``TokenStorage/replace(_:with:)``),
///   so a sign-out or a sign-in that came while it ran always wins.
/// - When the refresh fails (the token endpoint refuses, or answers 401), the storage is cleared
///   if it still holds the refused pair, every waiting request fails with `sessionExpired`, and
///   `onSessionExpired` runs once with the ``ExpiredSession``. A refused refresh of a session that
///   already ended clears nothing and calls no hook. A refresh that fails for a temporary reason
///   (no network, a 5xx) fails the waiting requests with that error (its code and status) and
///   keeps the session, however long the outage lasts: the next request after it tries again.
/// - When the server keeps refusing tokens that a refresh has just issued, the session ends
///   after `maximumRefreshes` such refreshes within the window, instead of looping. Refreshes
///   that fail, and refreshes whose tokens are accepted, do not count.
/// - A refresh request sent back through an auth policy on the same storage (without
///   `.authentication(.none)`) fails at once with `invalidRequest` and a message naming the fix,
///   and so does the refresh; the session is kept.
/// - A storage that cannot be read or written fails the request with `tokenStorage`; one out of
///   reach for now (the keychain of a locked device) with `tokenStorageUnavailable`, and the
///   session is kept.
/// - With ``InMemoryTokenStorage``, ``FileTokenStorage`` or `KeychainTokenStorage`, tokens read
///   once are sent without reading the storage again until it changes (a write, a `clear()` on
///   sign-out, a refresh) or they come within the leeway of their expiry. A storage of the app's
///   own is read for every request.
///
/// Written once, as async code: reading the tokens, sending, and renewing after a 401 are one
/// path in one task (the caller's chain's, or one of its own when it is outermost), whether the
/// tokens were known or had to be read.
///
/// See "Signing out and switching accounts" for what holds across users.
public struct AuthenticatingDispatcher: WrappingDispatcher, AsyncPolicy {
    /// The dispatcher that sends the authenticated requests.
    public let base: any NetworkDispatcher
    let session: TokenSession
    /// Stamps each request with the session current when it is made, before its task starts.
    private let stamper: SessionStamper

    /// Creates an authenticating dispatcher; see the type's documentation.
    ///
    /// - Parameters:
    ///   - base: The dispatcher that sends the requests.
    ///   - storage: Where the tokens are kept.
    ///   - refresher: What turns the current tokens into new ones. Send its request with
    ///     `.authentication(.none)` and `.bypassingQueue()`, or through a dispatcher without auth.
    ///   - onSessionExpired: Runs once each time the session ends (show the sign-in screen).
    ///   - leeway: How long before expiry a token is refreshed ahead of time, in seconds.
    ///   - maximumRefreshes: How many refreshes whose tokens the server refuses again are
    ///     allowed within `window` seconds before the session ends.
    ///   - window: The window for `maximumRefreshes`, in seconds; `.infinity` counts every such
    ///     refresh, and so does a window that is not a positive number (zero, negative, NaN).
    ///   - now: The wall-clock time, for expiry; inject it in tests.
    public init(
        base: any NetworkDispatcher, storage: any TokenStorage, refresher: any TokenRefresher,
        onSessionExpired: @escaping @Sendable (ExpiredSession) -> Void = { _ in }, leeway: TimeInterval = 60,
        maximumRefreshes: Int = 5,
        within window: TimeInterval = 60, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.base = base
        self.session = TokenSession(
            storage: storage, refresher: refresher, onSessionExpired: onSessionExpired, leeway: leeway,
            limit: .init(count: maximumRefreshes, window: window), now: now)
        self.stamper = SessionStamper(session: session)
    }

    /// Sends the request with a bearer token, renewing it as needed.
    @discardableResult
    public func dispatch(
        request: RequestData,
        onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        startSending(request: stamper.stamped(request), onSuccess: onSuccess, onError: onError)
    }

    func send(_ request: RequestData) async throws(NetworkError) -> NetworkResponse {
        guard TokenSession.signs(request) else { return try await base.sendInline(request) }
        return try await send(request, in: session.generation(of: request))
    }

    /// Sends `request` with the tokens of the session `generation`, renewing them after a 401.
    private func send(_ request: RequestData, in generation: UInt64) async throws(NetworkError)
        -> NetworkResponse
    {
        // Valid tokens read before, from a storage that has not changed since, need no hop.
        let current: TokenPair?
        if let valid = session.validTokens(in: generation) {
            current = valid
        } else {
            current = try await session.currentTokens(for: request, in: generation)
        }
        guard let tokens = current else {
            try Self.requireTokens(for: request)
            return try await base.sendInline(request)
        }
        let response = try await base.sendInline(request.bearer(tokens.accessToken))
        guard response.statusCode == 401 else {
            session.confirm(tokens.accessToken)
            return response
        }
        return try await sendAgain(request, refusing: tokens, in: generation)
    }

    /// Sends `request` once more with the tokens that replace `refused` in the same session,
    /// after a 401; a session that ended meanwhile fails it with `sessionEnded`.
    private func sendAgain(_ request: RequestData, refusing refused: TokenPair, in generation: UInt64)
        async throws(NetworkError) -> NetworkResponse
    {
        let renewed = try await session.renew(rejecting: refused.accessToken, in: generation, for: request)
        let retried = try await base.sendInline(request.bearer(renewed.accessToken))
        if retried.statusCode != 401 { session.confirm(renewed.accessToken) }
        return retried
    }

    /// Fails a request that requires a signed-in user when no tokens are stored.
    private static func requireTokens(for request: RequestData) throws(NetworkError) {
        guard request.authentication == .required else { return }
        throw NetworkError(
            code: .sessionExpired, message: "The request needs a signed-in user, and no tokens are stored.",
            request: request)
    }
}

extension RequestData {
    /// This request with `Authorization: Bearer <token>`.
    fileprivate func bearer(_ token: String) -> RequestData {
        header("Authorization", "Bearer \(token)")
    }
}
