import Errand
import Foundation

extension NetworkDispatcher {
    /// This dispatcher, sending bearer tokens from `storage` and renewing them with `refresh`,
    /// which is handed this dispatcher (beneath the auth policy) to send the refresh request.
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
    /// See ``AuthenticatingDispatcher`` for the rules.
    ///
    /// - Parameters:
    ///   - storage: Where the tokens are kept.
    ///   - refresh: Turns the current tokens into new ones; its second argument is this
    ///     dispatcher, which sends the refresh request without auth.
    ///   - onSessionExpired: Runs once each time the session ends.
    ///   - leeway: How long before expiry a token is refreshed ahead of time, in seconds.
    ///   - maximumRefreshes: How many refreshes whose tokens the server refuses again are
    ///     allowed within `window` seconds before the session ends.
    ///   - window: The window for `maximumRefreshes`, in seconds; `.infinity` counts every such
    ///     refresh, and so does a window that is not a positive number (zero, negative, NaN).
    ///   - now: The wall-clock time, for expiry.
    /// - Returns: The authenticating dispatcher.
    public func authenticating(
        storage: any TokenStorage, refresh: @escaping @Sendable (TokenPair, Self) async throws -> TokenPair,
        onSessionExpired: @escaping @Sendable (ExpiredSession) -> Void = { _ in }, leeway: TimeInterval = 60,
        maximumRefreshes: Int = 5,
        within window: TimeInterval = 60, now: @escaping @Sendable () -> Date = { Date() }
    ) -> AuthenticatingDispatcher {
        let base = self
        return authenticating(
            storage: storage, refresh: { tokens in try await refresh(tokens, base) },
            onSessionExpired: onSessionExpired, leeway: leeway, maximumRefreshes: maximumRefreshes,
            within: window, now: now)
    }

    /// This dispatcher, sending bearer tokens from `storage` and renewing them with `refresh`.
    ///
    /// See ``AuthenticatingDispatcher`` for the rules. Send the refresh request through a
    /// dispatcher without this policy, or mark it `.authentication(.none)`; the form whose
    /// closure also receives the dispatcher does that for you.
    ///
    /// - Parameters:
    ///   - storage: Where the tokens are kept.
    ///   - refresh: Turns the current tokens into new ones.
    ///   - onSessionExpired: Runs once each time the session ends.
    ///   - leeway: How long before expiry a token is refreshed ahead of time, in seconds.
    ///   - maximumRefreshes: How many refreshes whose tokens the server refuses again are
    ///     allowed within `window` seconds before the session ends.
    ///   - window: The window for `maximumRefreshes`, in seconds; `.infinity` counts every such
    ///     refresh, and so does a window that is not a positive number (zero, negative, NaN).
    ///   - now: The wall-clock time, for expiry.
    /// - Returns: The authenticating dispatcher.
    public func authenticating(
        storage: any TokenStorage, refresh: @escaping @Sendable (TokenPair) async throws -> TokenPair,
        onSessionExpired: @escaping @Sendable (ExpiredSession) -> Void = { _ in }, leeway: TimeInterval = 60,
        maximumRefreshes: Int = 5,
        within window: TimeInterval = 60, now: @escaping @Sendable () -> Date = { Date() }
    ) -> AuthenticatingDispatcher {
        authenticating(
            storage: storage, refresher: ClosureTokenRefresher(refresh), onSessionExpired: onSessionExpired,
            leeway: leeway, maximumRefreshes: maximumRefreshes, within: window, now: now)
    }

    /// This dispatcher, sending bearer tokens from `storage` and renewing them with `refresher`.
    ///
    /// See ``AuthenticatingDispatcher`` for the rules.
    ///
    /// - Parameters:
    ///   - storage: Where the tokens are kept.
    ///   - refresher: Turns the current tokens into new ones.
    ///   - onSessionExpired: Runs once each time the session ends.
    ///   - leeway: How long before expiry a token is refreshed ahead of time, in seconds.
    ///   - maximumRefreshes: How many refreshes whose tokens the server refuses again are
    ///     allowed within `window` seconds before the session ends.
    ///   - window: The window for `maximumRefreshes`, in seconds; `.infinity` counts every such
    ///     refresh, and so does a window that is not a positive number (zero, negative, NaN).
    ///   - now: The wall-clock time, for expiry.
    /// - Returns: The authenticating dispatcher.
    public func authenticating(
        storage: any TokenStorage, refresher: any TokenRefresher,
        onSessionExpired: @escaping @Sendable (ExpiredSession) -> Void = { _ in }, leeway: TimeInterval = 60,
        maximumRefreshes: Int = 5,
        within window: TimeInterval = 60, now: @escaping @Sendable () -> Date = { Date() }
    ) -> AuthenticatingDispatcher {
        AuthenticatingDispatcher(
            base: self, storage: storage, refresher: refresher, onSessionExpired: onSessionExpired,
            leeway: leeway, maximumRefreshes: maximumRefreshes, within: window, now: now)
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
        onSessionExpired: @escaping @Sendable (ExpiredSession) -> Void = { _ in },
        refreshHandler: @escaping @Sendable (TokenPair, URLSessionDispatcher) async throws -> TokenPair
    ) -> RetryingDispatcher {
        URLSessionDispatcher(baseURL: baseURL, timeout: timeout)
            .authenticating(
                storage: tokenStorage, refresh: refreshHandler, onSessionExpired: onSessionExpired
            )
            .retrying(retry)
    }
}
