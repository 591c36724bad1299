import Foundation

/// A dispatcher that sends `Authorization: Bearer <token>` from a ``TokenStorage`` and renews
/// the token when it expires or is refused. Made with
/// ``NetworkDispatcher/authenticating(storage:refresh:onSessionExpired:leeway:maximumRefreshes:within:now:)``.
///
/// - Requests marked `.none` (login, the refresh call itself) and requests that set their own
///   `Authorization` pass through untouched. `.optional` (the default) attaches a token when
///   there is one; `.required` fails with `sessionExpired` when there is none.
/// - A token that expires within the leeway is refreshed before it is sent.
/// - On a 401, exactly one refresh runs for any number of concurrent 401s; each request is sent
///   again once with the new token. A request refused with a token that has already been
///   replaced is sent again with the current one and starts no refresh.
/// - When the refresh fails (the token endpoint refuses, or answers 401), the storage is cleared,
///   every waiting request fails with `sessionExpired`, and `onSessionExpired` runs once. A
///   refresh that fails for a temporary reason (no network, a 5xx) fails the waiting requests
///   with that error and keeps the session.
/// - More than the allowed refreshes within the window ends the session instead of looping.
public struct AuthenticatingDispatcher: NetworkDispatcher, AsyncPolicy {
    /// The dispatcher that sends the authenticated requests.
    public let base: any NetworkDispatcher
    private let session: TokenSession

    /// Creates an authenticating dispatcher; see the type's documentation.
    ///
    /// - Parameters:
    ///   - base: The dispatcher that sends the requests.
    ///   - storage: Where the tokens are kept.
    ///   - refresher: What turns the current tokens into new ones. Send its request with
    ///     `.authentication(.none)` and `.bypassingQueue()`, or through a dispatcher without auth.
    ///   - onSessionExpired: Runs once each time the session ends (show the sign-in screen).
    ///   - leeway: How long before expiry a token is refreshed ahead of time, in seconds.
    ///   - maximumRefreshes: How many refreshes are allowed within `window` seconds.
    ///   - window: The window for `maximumRefreshes`, in seconds.
    ///   - now: The wall-clock time, for expiry; inject it in tests.
    public init(
        base: any NetworkDispatcher, storage: any TokenStorage, refresher: any TokenRefresher,
        onSessionExpired: @escaping @Sendable () -> Void = {}, leeway: TimeInterval = 60,
        maximumRefreshes: Int = 5,
        within window: TimeInterval = 60, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.base = base
        self.session = TokenSession(
            storage: storage, refresher: refresher, onSessionExpired: onSessionExpired, leeway: leeway,
            limit: .init(count: maximumRefreshes, window: window), now: now)
    }

    /// Sends the request with a bearer token, renewing it as needed.
    @discardableResult
    public func dispatch(
        request: RequestData,
        onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        guard request.authentication != .none, !request.headers.contains("Authorization") else {
            return base.dispatch(request: request, onSuccess: onSuccess, onError: onError)
        }
        return PolicyCall.start(request: request, onSuccess: onSuccess, onError: onError) {
            () async throws(NetworkError) in
            try await send(request)
        }
    }

    func send(_ request: RequestData) async throws(NetworkError) -> NetworkResponse {
        guard request.authentication != .none, !request.headers.contains("Authorization") else {
            return try await base.sendInline(request)
        }
        guard let tokens = try await session.currentTokens(for: request) else {
            if request.authentication == .required {
                throw NetworkError(
                    code: .sessionExpired,
                    message: "The request needs a signed-in user, and no tokens are stored.",
                    request: request)
            }
            return try await base.sendInline(request)
        }
        let response = try await base.sendInline(request.bearer(tokens.accessToken))
        guard response.statusCode == 401 else { return response }
        let renewed = try await session.renew(rejecting: tokens.accessToken, for: request)
        return try await base.sendInline(request.bearer(renewed.accessToken))
    }
}

extension RequestData {
    /// This request with `Authorization: Bearer <token>`.
    fileprivate func bearer(_ token: String) -> RequestData {
        header("Authorization", "Bearer \(token)")
    }
}

extension NetworkDispatcher {
    /// This dispatcher, sending bearer tokens from `storage` and renewing them with `refresh`.
    ///
    /// See ``AuthenticatingDispatcher`` for the rules.
    ///
    /// - Parameters:
    ///   - storage: Where the tokens are kept.
    ///   - refresh: Turns the current tokens into new ones.
    ///   - onSessionExpired: Runs once each time the session ends.
    ///   - leeway: How long before expiry a token is refreshed ahead of time, in seconds.
    ///   - maximumRefreshes: How many refreshes are allowed within `window` seconds.
    ///   - window: The window for `maximumRefreshes`, in seconds.
    ///   - now: The wall-clock time, for expiry.
    public func authenticating(
        storage: any TokenStorage, refresh: @escaping @Sendable (TokenPair) async throws -> TokenPair,
        onSessionExpired: @escaping @Sendable () -> Void = {}, leeway: TimeInterval = 60,
        maximumRefreshes: Int = 5,
        within window: TimeInterval = 60, now: @escaping @Sendable () -> Date = { Date() }
    ) -> AuthenticatingDispatcher {
        AuthenticatingDispatcher(
            base: self, storage: storage, refresher: ClosureTokenRefresher(refresh),
            onSessionExpired: onSessionExpired,
            leeway: leeway, maximumRefreshes: maximumRefreshes, within: window, now: now)
    }

    /// This dispatcher, sending bearer tokens from `storage` and renewing them with `refresher`.
    public func authenticating(
        storage: any TokenStorage, refresher: any TokenRefresher,
        onSessionExpired: @escaping @Sendable () -> Void = {}
    ) -> AuthenticatingDispatcher {
        AuthenticatingDispatcher(
            base: self, storage: storage, refresher: refresher, onSessionExpired: onSessionExpired)
    }
}

extension URLSessionDispatcher {
    /// The common stack in one call: URLSession, then bearer auth, then retry.
    ///
    /// ```swift
    /// let api = URLSessionDispatcher.withAuth(
    ///     baseURL: URL(string: "https://api.example.com")!,
    ///     tokenStorage: FileTokenStorage(url: tokensFile)
    /// ) { tokens, transport in
    ///     try await RefreshTokens(refreshToken: tokens.refreshToken).execute(dispatcher: transport)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - baseURL: The API's base URL.
    ///   - tokenStorage: Where the tokens are kept.
    ///   - retry: The retry policy around everything; ``RetryPolicy/default`` by default.
    ///   - timeout: The per-request deadline, in seconds.
    ///   - onSessionExpired: Runs once each time the session ends.
    ///   - refreshHandler: Gets new tokens. It is given the bare transport, which has no auth
    ///     and no queue, to send the refresh request through.
    /// - Returns: The composed dispatcher.
    public static func withAuth(
        baseURL: URL, tokenStorage: any TokenStorage, retry: RetryPolicy = .default,
        timeout: TimeInterval = 60,
        onSessionExpired: @escaping @Sendable () -> Void = {},
        refreshHandler: @escaping @Sendable (TokenPair, URLSessionDispatcher) async throws -> TokenPair
    ) -> RetryingDispatcher {
        let transport = URLSessionDispatcher(baseURL: baseURL, timeout: timeout)
        return
            transport
            .authenticating(
                storage: tokenStorage, refresh: { tokens in try await refreshHandler(tokens, transport) },
                onSessionExpired: onSessionExpired
            )
            .retrying(retry)
    }
}
