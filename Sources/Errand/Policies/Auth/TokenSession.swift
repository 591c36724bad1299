import ErrandSync
import Foundation

/// The shared state of one auth policy: the single refresh in flight, and the refresh budget.
///
/// An actor, so the check "is a refresh running?" and the start of one happen together: any
/// number of concurrent 401s await the same refresh task. The task clears itself on the actor
/// before any waiter resumes, so a later 401 for the new token starts a new refresh.
actor TokenSession {
    /// How many refreshed tokens may be refused within a window before the session ends.
    struct RefreshLimit: Sendable {
        var count: Int
        var window: TimeInterval
    }

    /// Why the current token is being replaced.
    enum Reason: Sendable {
        /// It expires within the leeway; nothing says the server would refuse it.
        case expiring
        /// The server answered 401 to it.
        case refused
    }

    let storage: any TokenStorage
    private let refresher: any TokenRefresher
    let onSessionExpired: @Sendable () -> Void
    private let leeway: TimeInterval
    private let limit: RefreshLimit
    private let now: @Sendable () -> Date
    private var refreshing: Task<TokenPair, any Error>?
    /// The access token the last successful refresh issued, until the server accepts it or a
    /// 401 for it is counted. A lock rather than actor state, so that confirming it costs a
    /// request no hop onto the actor.
    private nonisolated let unconfirmed = Locked<String?>(nil)
    /// When refreshed tokens were refused: the loop the limit exists to stop.
    private var refusals: [Date] = []
    /// Set when the running refresh sent its request through this very policy.
    private var refreshSentThroughItself = false
    /// The stored pair as last read, for requests to take without a hop onto the actor; `nil`
    /// for a storage that does not count its changes. See ``TokenSnapshot`` for its rules.
    private nonisolated let snapshot: TokenSnapshot.Slot?

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
        self.snapshot = (storage as? any RevisionedTokenStorage).map(TokenSnapshot.Slot.init)
    }

    /// The stored tokens without a hop onto the actor, when the copy kept by the last read still
    /// matches the storage and does not expire within the leeway; `nil` when the request must
    /// ask ``currentTokens(for:)``. `.some(nil)` means no tokens are stored.
    nonisolated func validTokens() -> TokenPair?? {
        guard let kept = snapshot?.current() else { return nil }
        if let expiry = kept?.expiresAt, expiry.timeIntervalSince(now()) <= leeway { return nil }
        return kept
    }

    /// The tokens to send now: the stored ones, refreshed first when they expire within the leeway.
    func currentTokens(for request: RequestData) async throws(NetworkError) -> TokenPair? {
        if let refreshing { return try await join(refreshing, request: request) }
        let revision = snapshot?.revision
        let tokens = try await read(for: request)
        if let tokens, let expiry = tokens.expiresAt, expiry.timeIntervalSince(now()) <= leeway {
            return try await renew(rejecting: tokens.accessToken, because: .expiring, for: request)
        }
        // A refresh that started while the storage was read will replace what was read.
        if let revision, refreshing == nil { snapshot?.keep(tokens, readAt: revision) }
        return tokens
    }

    /// New tokens to replace `rejected`: joins the refresh in flight, or starts the one task that
    /// returns tokens that already replaced `rejected` or else refreshes.
    ///
    /// Nothing suspends between the check for a running task and the start of a new one, so
    /// concurrent callers can never start two.
    func renew(rejecting rejected: String, because reason: Reason = .refused, for request: RequestData)
        async throws(NetworkError) -> TokenPair
    {
        if let refreshing { return try await join(refreshing, request: request) }
        // Requests made from now on wait for the refresh rather than send the refused token.
        snapshot?.drop()
        let task = Task<TokenPair, any Error> {
            defer { refreshing = nil }
            return try await refreshUnlessReplaced(rejected, because: reason)
        }
        refreshing = task
        return try await Self.value(of: task, request: request)
    }

    /// Waits for the refresh in flight, unless the caller is that refresh's own request, which
    /// would wait for itself forever.
    private func join(_ task: Task<TokenPair, any Error>, request: RequestData) async throws(NetworkError)
        -> TokenPair
    {
        if RefreshScope.sessions.contains(ObjectIdentifier(self)) {
            refreshSentThroughItself = true
            throw Self.sentThroughItself(request)
        }
        return try await Self.value(of: task, request: request)
    }

    /// The stored tokens if they already differ from `rejected`; else a refresh within the budget.
    private func refreshUnlessReplaced(_ rejected: String, because reason: Reason) async throws -> TokenPair {
        guard let current = try await read(for: nil) else {
            throw Self.expired("no tokens are stored (signed out)", request: nil)
        }
        if current.accessToken != rejected { return current }
        if reason == .refused, unconfirmed.withLock({ $0 == rejected }) { try await countRefusal() }
        return try await refresh(current)
    }

    /// Notes that the server accepted `token`: the refresh that issued it was no loop.
    nonisolated func confirm(_ token: String) {
        unconfirmed.withLock { if $0 == token { $0 = nil } }
    }

    /// Counts a refreshed token that the server refused before accepting it even once, and ends
    /// the session at the limit.
    ///
    /// Each refresh counts at most once; failed refreshes and refreshes whose tokens work never
    /// count: only a loop of refreshes that succeed and whose tokens are refused again, never
    /// an outage of the token endpoint, signs the user out.
    private func countRefusal() async throws {
        unconfirmed.withLock { $0 = nil }
        let time = now()
        refusals.removeAll { time.timeIntervalSince($0) >= limit.window }
        refusals.append(time)
        guard refusals.count >= limit.count else { return }
        refusals.removeAll()
        try await endSession(
            "\(limit.count) token refreshes within \(Int(limit.window)) s gave tokens that the server "
                + "refused again, so the session ends instead of looping")
    }

    /// Runs the refresher once and stores, or ends the session, by its outcome.
    private func refresh(_ current: TokenPair) async throws -> TokenPair {
        refreshSentThroughItself = false
        let renewed: TokenPair
        do {
            renewed = try await RefreshScope.$sessions.withValue(
                RefreshScope.sessions.union([ObjectIdentifier(self)])
            ) {
                try await refresher.refresh(current)
            }
        } catch {
            // A refresh that waited on itself is a mistake in the app, not a verdict on the tokens.
            if refreshSentThroughItself { throw Self.sentThroughItself(nil) }
            if var temporary = error as? NetworkError, Self.isTemporary(temporary) {
                temporary.message =
                    "The token refresh failed for a temporary reason; the tokens are kept. "
                    + temporary.message
                throw temporary
            }
            try await endSession("the token refresh failed: \(error)", cause: error)
        }
        try await write(renewed)
        snapshot?.drop()
        unconfirmed.withLock { $0 = renewed.accessToken }
        return renewed
    }

    /// Clears the storage, tells the app once, and throws `sessionExpired`.
    private func endSession(_ reason: String, cause: (any Error)? = nil) async throws -> Never {
        unconfirmed.withLock { $0 = nil }
        snapshot?.drop()
        try? await storage.clear()
        onSessionExpired()
        throw Self.expired(reason, request: nil, cause: cause)
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
    private static func isTemporary(_ error: NetworkError) -> Bool {
        switch error.code {
        case .transport, .timedOut, .cancelled: return true
        case .unacceptableStatus: return (error.statusCode ?? 0) >= 500
        default: return false
        }
    }

    static func expired(_ reason: String, request: RequestData?, cause: (any Error)? = nil)
        -> NetworkError
    {
        NetworkError(
            code: .sessionExpired, message: "The session has expired: \(reason). Sign in again.",
            request: request,
            underlyingError: cause)
    }

    private static func sentThroughItself(_ request: RequestData?) -> NetworkError {
        NetworkError(
            code: .invalidRequest,
            message: "The token refresh request was sent through the same authenticating dispatcher, "
                + "so it would wait for its own refresh forever. Send it through the dispatcher passed "
                + "to the refresh closure, or mark it `.authentication(.none)`.",
            request: request)
    }
}

/// The auth policies whose refresh the current task is running, so that a refresh request sent
/// back through its own policy is recognised instead of waiting for itself.
enum RefreshScope {
    @TaskLocal static var sessions: Set<ObjectIdentifier> = []
}
