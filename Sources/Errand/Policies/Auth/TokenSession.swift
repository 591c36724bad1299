import Foundation

/// The shared state of one auth policy: the single refresh in flight, and the refresh budget.
///
/// An actor, so the check "is a refresh running?" and the start of one happen together: any
/// number of concurrent 401s await the same refresh task. The task clears itself on the actor
/// before any waiter resumes, so a later 401 for the new token starts a new refresh.
actor TokenSession {
    /// How many refreshes are allowed within a window before the session is declared expired.
    struct RefreshLimit: Sendable {
        var count: Int
        var window: TimeInterval
    }

    private let storage: any TokenStorage
    private let refresher: any TokenRefresher
    private let onSessionExpired: @Sendable () -> Void
    private let leeway: TimeInterval
    private let limit: RefreshLimit
    private let now: @Sendable () -> Date
    private var refreshing: Task<TokenPair, any Error>?
    private var recentRefreshes: [Date] = []

    init(
        storage: any TokenStorage, refresher: any TokenRefresher,
        onSessionExpired: @escaping @Sendable () -> Void,
        leeway: TimeInterval, limit: RefreshLimit, now: @escaping @Sendable () -> Date
    ) {
        self.storage = storage
        self.refresher = refresher
        self.onSessionExpired = onSessionExpired
        self.leeway = leeway
        self.limit = limit
        self.now = now
    }

    /// The tokens to send now: the stored ones, refreshed first when they expire within the leeway.
    func currentTokens(for request: RequestData) async throws(NetworkError) -> TokenPair? {
        if let refreshing { return try await Self.value(of: refreshing, request: request) }
        guard let tokens = try await read(for: request) else { return nil }
        if let expiry = tokens.expiresAt, expiry.timeIntervalSince(now()) <= leeway {
            return try await renew(rejecting: tokens.accessToken, for: request)
        }
        return tokens
    }

    /// New tokens after `rejected` was refused: joins the refresh in flight, or starts the one
    /// task that returns tokens that already replaced `rejected` or else refreshes.
    ///
    /// Nothing suspends between the check for a running task and the start of a new one, so
    /// concurrent callers can never start two.
    func renew(rejecting rejected: String, for request: RequestData) async throws(NetworkError) -> TokenPair {
        if let refreshing { return try await Self.value(of: refreshing, request: request) }
        let task = Task<TokenPair, any Error> {
            defer { refreshing = nil }
            return try await refreshUnlessReplaced(rejected)
        }
        refreshing = task
        return try await Self.value(of: task, request: request)
    }

    /// The stored tokens if they already differ from `rejected`; else a refresh within the budget.
    private func refreshUnlessReplaced(_ rejected: String) async throws -> TokenPair {
        guard let current = try await storage.read() else {
            throw Self.expired("no tokens are stored (signed out)", request: nil)
        }
        if current.accessToken != rejected { return current }
        let time = now()
        recentRefreshes.removeAll { time.timeIntervalSince($0) >= limit.window }
        guard recentRefreshes.count < limit.count else {
            try? await storage.clear()
            onSessionExpired()
            throw Self.expired(
                "\(limit.count) token refreshes within \(Int(limit.window)) s: the server keeps refusing new "
                    + "tokens, so the session ends instead of looping",
                request: nil)
        }
        recentRefreshes.append(time)
        return try await refresh(current)
    }

    /// Runs the refresher once and stores, or ends the session, by its outcome.
    private func refresh(_ current: TokenPair) async throws -> TokenPair {
        do {
            let renewed = try await refresher.refresh(current)
            try await storage.write(renewed)
            return renewed
        } catch {
            if Self.isTemporary(error) { throw error }
            try? await storage.clear()
            onSessionExpired()
            throw Self.expired("the token refresh failed: \(error)", request: nil, cause: error)
        }
    }

    private func read(for request: RequestData) async throws(NetworkError) -> TokenPair? {
        do {
            return try await storage.read()
        } catch {
            throw NetworkError(
                code: .invalidRequest, message: "The token storage could not be read: \(error)",
                request: request,
                underlyingError: error)
        }
    }

    private static func value(of task: Task<TokenPair, any Error>, request: RequestData)
        async throws(NetworkError)
        -> TokenPair
    {
        do {
            return try await task.value
        } catch var error as NetworkError {
            error.request = request
            throw error
        } catch {
            throw expired("the token refresh failed: \(error)", request: request, cause: error)
        }
    }

    /// Failures that say nothing about the tokens: the network, or the token server being down.
    private static func isTemporary(_ error: any Error) -> Bool {
        guard let error = error as? NetworkError else { return false }
        switch error.code {
        case .transport, .timedOut, .cancelled: return true
        case .unacceptableStatus: return (error.statusCode ?? 0) >= 500
        default: return false
        }
    }

    private static func expired(_ reason: String, request: RequestData?, cause: (any Error)? = nil)
        -> NetworkError
    {
        NetworkError(
            code: .sessionExpired, message: "The session has expired: \(reason). Sign in again.",
            request: request,
            underlyingError: cause)
    }
}
