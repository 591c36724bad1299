import Errand
import Foundation

/// One auth policy's view of its storage's session: its refresher, leeway and budget, over the
/// ``TokenLedger`` that every policy on the storage shares.
///
/// Every request belongs to the session (the ledger's generation) it was made in. It is sent
/// with that session's tokens only: a refresh joined, a token read or a request sent again
/// after a 401 whose session has since ended (a sign-out, an account switch) fails with
/// `sessionEnded` instead of going out with the next session's tokens.
///
/// The refresh in flight is the ledger's, per storage and generation: any number of concurrent
/// 401s, on any policy over the storage, await one refresh task, which removes itself from the
/// ledger before any waiter resumes, so a later 401 for the new token starts a new refresh. The
/// refresh stores its tokens with a compare-and-set against the pair it started from, so a
/// sign-out or a sign-in that came meanwhile always wins; a refused refresh clears the storage
/// (and calls the expiry hook) only if the storage still holds the pair that was refused.
final class TokenSession: Sendable {
    /// How many refreshed tokens may be refused within a window before the session ends.
    struct RefreshLimit: Sendable {
        /// At least 1.
        let count: Int
        /// In seconds, positive; `.infinity` counts every refusal.
        let window: TimeInterval

        /// The limit as configured, made whole: a count below 1 is 1, and a window that is not a
        /// positive number (zero, negative, NaN) counts every refusal, as `.infinity` does, so
        /// that the limit still ends a loop.
        init(count: Int, window: TimeInterval) {
            self.count = max(1, count)
            self.window = window > 0 ? window : .infinity
        }

        /// `within 60 s`, or `in a row` when the window is unlimited or too long to read.
        var span: String {
            guard window < 1e15 else { return "in a row" }
            let whole = Int.saturating(window.rounded(), within: 0...Int.max)
            return window == window.rounded() ? "within \(whole) s" : "within \(window) s"
        }
    }

    /// Why the current token is being replaced.
    enum Reason: Sendable {
        /// It expires within the leeway; nothing says the server would refuse it.
        case expiring
        /// The server answered 401 to it.
        case refused
    }

    let storage: any TokenStorage
    let ledger: TokenLedger
    private let refresher: any TokenRefresher
    let onSessionExpired: @Sendable (ExpiredSession) -> Void
    private let leeway: TimeInterval
    private let limit: RefreshLimit
    private let now: @Sendable () -> Date

    init(
        storage: any TokenStorage, refresher: any TokenRefresher,
        onSessionExpired: @escaping @Sendable (ExpiredSession) -> Void,
        leeway: TimeInterval, limit: RefreshLimit, now: @escaping @Sendable () -> Date
    ) {
        self.storage = storage
        self.ledger = TokenLedger.of(storage)
        self.refresher = refresher
        self.onSessionExpired = onSessionExpired
        self.leeway = leeway
        self.limit = limit
        self.now = now
    }

    /// Whether this policy attaches a token to `request`.
    static func signs(_ request: RequestData) -> Bool {
        request.authentication != .none && !request.headers.contains("Authorization")
    }

    /// The generation `request` belongs to: the one an outer policy stamped it with, else now.
    func generation(of request: RequestData) -> UInt64 {
        if let stamp = request.session, ledger.owns(stamp) { return stamp.generation }
        return ledger.generation
    }

    /// The stored tokens of `generation` without suspending, when the copy kept by the last read
    /// still matches the storage and does not expire within the leeway; `nil` when the request
    /// must ask ``currentTokens(for:in:)``. `.some(nil)` means no tokens are stored.
    func validTokens(in generation: UInt64) -> TokenPair?? {
        guard let kept = ledger.keptTokens(in: generation) else { return nil }
        if let expiry = kept?.expiresAt, expiry.timeIntervalSince(now()) <= leeway { return nil }
        return kept
    }

    /// The tokens to send now in `generation`: the stored ones, refreshed first when they expire
    /// within the leeway.
    func currentTokens(for request: RequestData, in generation: UInt64) async throws(NetworkError)
        -> TokenPair?
    {
        if let flight = ledger.currentFlight(in: generation) {
            return try await join(flight, request: request)
        }
        let revision = ledger.revision
        let tokens = try await read(for: request)
        // A sign-in or sign-out while the storage was read: these tokens are not the request's.
        try requireCurrent(generation, request)
        if let tokens, let expiry = tokens.expiresAt, expiry.timeIntervalSince(now()) <= leeway {
            return try await renew(
                rejecting: tokens.accessToken, because: .expiring, in: generation, for: request)
        }
        if let revision { ledger.keep(tokens, readAt: revision, in: generation) }
        return tokens
    }

    /// New tokens of `generation` to replace `rejected`: joins the refresh in flight, or starts
    /// the one task that returns tokens that already replaced `rejected` or else refreshes.
    func renew(
        rejecting rejected: String, because reason: Reason = .refused, in generation: UInt64,
        for request: RequestData
    ) async throws(NetworkError) -> TokenPair {
        let flight = ledger.flight(for: generation) {
            Task { [self] in
                defer { ledger.finish(in: generation) }
                return try await refreshUnlessReplaced(rejected, because: reason, in: generation)
            }
        }
        guard let flight else {
            try requireCurrent(generation, request)
            throw Self.sessionEnded(request)
        }
        let renewed = try await join(flight, request: request)
        try requireCurrent(generation, request)
        return renewed
    }

    /// Notes that the server accepted `token`: the refresh that issued it was no loop.
    func confirm(_ token: String) {
        ledger.confirm(token)
    }

    /// Throws when the storage's session is no longer `generation`: `sessionExpired` when an
    /// auth policy ended it, `sessionEnded` when the app did (a sign-out, another sign-in).
    func requireCurrent(_ generation: UInt64, _ request: RequestData?) throws(NetworkError) {
        guard ledger.generation != generation else { return }
        if ledger.hasExpired(generation) {
            throw Self.expired("it ended while the request waited", request: request)
        }
        throw Self.sessionEnded(request)
    }

    /// Waits for the refresh in flight, unless the caller is that refresh's own request, which
    /// would wait for itself forever.
    private func join(_ task: Task<TokenPair, any Error>, request: RequestData) async throws(NetworkError)
        -> TokenPair
    {
        if RefreshScope.ledgers.contains(ObjectIdentifier(ledger)) {
            ledger.noteSentThroughItself()
            throw Self.sentThroughItself(request)
        }
        return try await Self.value(of: task, request: request)
    }

    /// The stored tokens if they already differ from `rejected`; else a refresh within the budget.
    private func refreshUnlessReplaced(_ rejected: String, because reason: Reason, in generation: UInt64)
        async throws -> TokenPair
    {
        guard let current = try await read(for: nil) else {
            throw Self.expired("no tokens are stored (signed out)", request: nil)
        }
        try requireCurrent(generation, nil)
        if current.accessToken != rejected { return current }
        if reason == .refused,
            ledger.countRefusal(of: rejected, at: now(), limit: (limit.count, limit.window))
        {
            try await endSession(
                current, in: generation,
                "\(limit.count) token refreshes \(limit.span) gave tokens that the server "
                    + "refused again, so the session ends instead of looping")
        }
        return try await refresh(current, in: generation)
    }

    /// Runs the refresher once and stores its tokens over `current`, or ends the session, by its
    /// outcome.
    private func refresh(_ current: TokenPair, in generation: UInt64) async throws -> TokenPair {
        let renewed: TokenPair
        do {
            renewed = try await RefreshScope.$ledgers.withValue(
                RefreshScope.ledgers.union([ObjectIdentifier(ledger)])
            ) {
                try await refresher.refresh(current)
            }
        } catch {
            // A refresh that waited on itself is a mistake in the app, not a verdict on the tokens.
            if ledger.refreshSentThroughItself { throw Self.sentThroughItself(nil) }
            if var temporary = error as? NetworkError, Self.isTemporary(temporary) {
                temporary.message =
                    "The token refresh failed for a temporary reason; the tokens are kept. "
                    + temporary.message
                throw temporary
            }
            try await endSession(current, in: generation, "the token refresh failed: \(error)", cause: error)
        }
        // Stored only over the pair it renewed, in the session it renewed: a sign-out or
        // sign-in meanwhile wins, even one that stored the same pair again.
        guard try await replace(current, with: renewed, in: generation) else { throw Self.sessionEnded(nil) }
        ledger.issued(renewed.accessToken)
        return renewed
    }

    /// Clears the storage if it still holds `current`, tells the app once, and throws
    /// `sessionExpired`; throws `sessionEnded` without a word to the app when the session had
    /// already changed (signed out, or someone else signed in).
    private func endSession(
        _ current: TokenPair, in generation: UInt64, _ reason: String, cause: (any Error)? = nil
    )
        async throws -> Never
    {
        ledger.forgetIssued()
        // Noted first, so that a request that sees the next generation already hears why.
        ledger.noteExpired(generation)
        let ended: Bool
        do {
            ended = try await replace(current, with: nil, in: generation)
        } catch {
            // A storage that cannot be cleared still ends the session it holds.
            ended = ledger.generation == generation
        }
        guard ended else {
            ledger.noteExpired(nil)
            throw Self.sessionEnded(nil)
        }
        onSessionExpired(ExpiredSession(generation: generation, reason: reason, of: ledger))
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

    static func sessionEnded(_ request: RequestData?) -> NetworkError {
        NetworkError(
            code: .sessionEnded,
            message: "The session this request was made in ended (a sign-out, or another sign-in) "
                + "before it was answered, so it was not sent with the next session's credentials.",
            request: request)
    }

    private static func sentThroughItself(_ request: RequestData?) -> NetworkError {
        NetworkError(
            code: .invalidRequest,
            message: "The token refresh request was sent through an authenticating dispatcher on the "
                + "same token storage, so it would wait for its own refresh forever. Send it through the "
                + "dispatcher passed to the refresh closure, or mark it `.authentication(.none)`.",
            request: request)
    }
}

/// The token ledgers whose refresh the current task is running, so that a refresh request sent
/// back through a policy on the same storage is recognised instead of waiting for itself.
enum RefreshScope {
    @TaskLocal static var ledgers: Set<ObjectIdentifier> = []
}
