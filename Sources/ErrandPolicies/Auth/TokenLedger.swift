import Errand
import ErrandSync
import Foundation

/// What every auth policy and every `AuthState` on one token storage share: which session the
/// storage holds, the one refresh in flight, and the refresh budget.
///
/// Kept per storage, not per policy, because the session belongs to the storage: two stacks on
/// one storage (an app with two APIs) that refreshed on their own would both spend the same
/// rotating refresh token, and the loser would sign the user out.
///
/// - The **generation** names the session the storage holds. A sign-in, a sign-out, an expired
///   session and any write that is not a refresh advance it; a refresh continues the session
///   and keeps it. With a random salt per ledger, a `SessionStamp` never names a session of another
///   storage or of an earlier launch.
/// - The storages of this module advance the generation themselves, in `write(_:)` and
///   `clear()`, whoever calls them. A storage of the app's own cannot tell, so the ledger
///   advances it for the changes made through the library (`AuthState`, the auth policy).
/// - A custom storage's changes made by the library run one at a time through ``serialized(_:)``,
///   so that a refresh's compare-and-set and a sign-out's clear never interleave.
package final class TokenLedger: Sendable {
    /// The refresh in flight, for the generation it started in.
    struct Flight: Sendable {
        let generation: UInt64
        let task: Task<TokenPair, any Error>
    }

    private struct State {
        var generation: UInt64 = 0
        /// Counts every change of the storage, refreshes included: a kept ``snapshot`` holds
        /// while it is the revision the pair was read at.
        var revision: UInt64 = 0
        /// The stored pair as last read, for requests to take without a hop onto an actor;
        /// only for the storages of this module, which move ``revision`` on every change.
        var snapshot: TokenSnapshot?
        var flight: Flight?
        /// The access token the last refresh issued, until the server accepts it once.
        var unconfirmed: String?
        /// When refreshed tokens were refused again: the loop the refresh budget stops.
        var refusals: [Date] = []
        /// Set when the running refresh sent its request back through an auth policy on this
        /// storage, which would wait for itself.
        var sentThroughItself = false
        /// The last generation an auth policy ended because its tokens could not be renewed.
        var expired: UInt64?
        /// Set when a sign-out's clear failed: the tokens still stored are the ended session's,
        /// so nothing reads them until the storage is written or cleared.
        var holdsEnded = false
    }

    let salt = UInt64.random(in: .min ... .max)
    private let state = Locked(State())
    /// Whether the storage reports every change itself (the storages of this module).
    let countsItsOwnChanges: Bool
    private let gate = AsyncGate()

    /// Creates a ledger; `countsItsOwnChanges` for a storage that calls ``advance()`` and
    /// ``touch()`` on every change, under the lock that guards its pair.
    init(countsItsOwnChanges: Bool) {
        self.countsItsOwnChanges = countsItsOwnChanges
    }

    /// The ledger of `storage`: its own for the storages of this module; for a storage of the
    /// app's own, the one every policy on that object shares (a struct storage, which has no
    /// identity, gets one per call).
    package static func of(_ storage: any TokenStorage) -> TokenLedger {
        if let keeping = storage as? any LedgerKeepingTokenStorage { return keeping.ledger }
        return registry.ledger(for: storage)
    }

    /// The session the storage holds now.
    package var stamp: SessionStamp { SessionStamp(salt: salt, generation: generation) }

    /// The storage's session generation now.
    package var generation: UInt64 { state.withLock { $0.generation } }

    /// Whether `stamp` names this ledger's current session; a stamp of another ledger does not
    /// concern it and counts as current.
    func isCurrent(_ stamp: SessionStamp) -> Bool {
        stamp.salt != salt || stamp.generation == generation
    }

    /// A stamp of this ledger for `generation`.
    func stamp(for generation: UInt64) -> SessionStamp { SessionStamp(salt: salt, generation: generation) }

    /// Whether `stamp` was made by this ledger.
    func owns(_ stamp: SessionStamp) -> Bool { stamp.salt == salt }

    /// Whether `expired` names a session of this ledger; one the app made itself may name any.
    package func owns(_ expired: ExpiredSession) -> Bool { expired.ledgerSalt.map { $0 == salt } ?? true }

    /// Starts a new session: called by the storages of this module on every write and clear, and
    /// by the library for the changes it makes to a storage of the app's own.
    ///
    /// - Parameter storageChanged: Whether the storage was just written or cleared, so that it
    ///   no longer holds an ended session's tokens; `false` for an advance around a change.
    package func advance(storageChanged: Bool = true) {
        state.withLock { state in
            if storageChanged { state.holdsEnded = false }
            state.generation &+= 1
            state.revision &+= 1
            state.snapshot = nil
            state.unconfirmed = nil
            state.refusals.removeAll()
        }
    }

    /// Notes a change that continues the session (a refresh's tokens stored): kept snapshots
    /// stop holding, the generation stays.
    func touch() {
        state.withLock { state in
            state.revision &+= 1
            state.snapshot = nil
        }
    }

    /// Runs `body`, one at a time with every other change the library makes to this storage.
    package func serialized<Result: Sendable>(_ body: @Sendable () async throws -> Result) async rethrows
        -> Result
    {
        await gate.enter()
        defer { gate.leave() }
        return try await body()
    }

    /// Writes `tokens` as a new session (a sign-in or an account switch).
    ///
    /// A storage of the app's own moves to a new generation before the write and again after
    /// it, so that a request made while it was written belongs to neither session.
    package func signIn(_ tokens: TokenPair, to storage: any TokenStorage) async throws {
        if !countsItsOwnChanges { advance(storageChanged: false) }
        defer { if !countsItsOwnChanges { advance(storageChanged: false) } }
        try await serialized { try await storage.write(tokens) }
        state.withLock { $0.holdsEnded = false }
    }

    /// Clears the storage and ends its session. Advances the generation before the clear starts,
    /// so that a refresh still running can no longer store its tokens.
    ///
    /// When the clear fails, the tokens left in the storage stay the ended session's: requests
    /// and ``holdsEndedTokens`` treat the storage as empty until a write or a clear succeeds
    /// (a sign-in through the library, or a write or clear of this module's storages), even
    /// while a sign-in is being written or after one failed.
    package func signOut(_ storage: any TokenStorage) async throws {
        advance(storageChanged: false)
        do {
            try await serialized { try await storage.clear() }
        } catch {
            state.withLock { $0.holdsEnded = true }
            throw error
        }
        state.withLock { $0.holdsEnded = false }
    }

    /// Whether the storage holds the tokens of a session that was signed out but could not be
    /// cleared: they must not be read as a session's.
    package var holdsEndedTokens: Bool { state.withLock { $0.holdsEnded } }

    /// Replaces `expected` with `replacement` (`nil` clears), only if the storage still holds
    /// `expected` in session `generation`; whether it did.
    ///
    /// The session is compared as well as the pair: an account switch that goes back to a
    /// saved pair (A, B, then A again) starts a new session, which a refresh of the first one
    /// must neither renew nor end.
    func replace(
        _ expected: TokenPair, with replacement: TokenPair?, inSession generation: UInt64,
        in storage: any TokenStorage
    ) async throws -> Bool {
        let replaced = try await serialized { () async throws -> Bool in
            if let keeping = storage as? any LedgerKeepingTokenStorage {
                return try await keeping.replace(expected, with: replacement, inSession: generation)
            }
            // A storage of the app's own: the library's sign-ins and sign-outs advance the
            // generation before they wait for this section, so it cannot move unseen here.
            guard self.generation == generation else { return false }
            return try await storage.replace(expected, with: replacement)
        }
        if replaced, !countsItsOwnChanges {
            if replacement == nil { advance() } else { touch() }
        }
        return replaced
    }

    // MARK: The kept pair

    /// The storage's revision now, to tag a read that follows; `nil` for a storage that does not
    /// count its changes, whose pair is never kept.
    var revision: UInt64? {
        guard countsItsOwnChanges else { return nil }
        return state.withLock { $0.revision }
    }

    /// The kept pair when the storage has not changed since it was read; `nil` when it must be
    /// read again. `.some(nil)` means the storage holds no tokens.
    func keptTokens(in generation: UInt64) -> TokenPair?? {
        state.withLock { state in
            guard let snapshot = state.snapshot, snapshot.revision == state.revision,
                state.generation == generation
            else { return nil }
            return .some(snapshot.tokens)
        }
    }

    /// Keeps `tokens`, read at `revision` in `generation`, unless a refresh is running (it will
    /// replace them) or the storage changed since.
    func keep(_ tokens: TokenPair?, readAt revision: UInt64, in generation: UInt64) {
        state.withLock { state in
            guard state.flight?.generation != generation, state.revision == revision,
                state.generation == generation
            else {
                return
            }
            state.snapshot = TokenSnapshot(tokens: tokens, revision: revision)
        }
    }

    /// Forgets the kept pair, so that requests from now on ask the session.
    func dropSnapshot() { state.withLock { $0.snapshot = nil } }

    // MARK: The refresh in flight

    /// The refresh in flight for `generation`, or the one `start` makes, which becomes it.
    /// Checked and started under one lock, so concurrent callers on any policy never start two.
    func flight(for generation: UInt64, start: () -> Task<TokenPair, any Error>) -> Task<
        TokenPair, any Error
    >? {
        state.withLock { state in
            guard state.generation == generation else { return nil }
            if let flight = state.flight, flight.generation == generation { return flight.task }
            let task = start()
            state.flight = Flight(generation: generation, task: task)
            state.snapshot = nil
            state.sentThroughItself = false
            return task
        }
    }

    /// The refresh in flight for `generation`, if any.
    func currentFlight(in generation: UInt64) -> Task<TokenPair, any Error>? {
        state.withLock { state in
            guard let flight = state.flight, flight.generation == generation else { return nil }
            return flight.task
        }
    }

    /// Forgets the finished refresh of `generation`, unless a newer one replaced it.
    func finish(in generation: UInt64) {
        state.withLock { state in
            if state.flight?.generation == generation { state.flight = nil }
        }
    }

    /// Notes that the running refresh sent its request back through a policy on this storage.
    func noteSentThroughItself() { state.withLock { $0.sentThroughItself = true } }

    /// Whether the running refresh sent its request back through a policy on this storage.
    var refreshSentThroughItself: Bool { state.withLock { $0.sentThroughItself } }

    // MARK: The refresh budget

    /// Remembers the access token a refresh issued, until the server accepts it.
    func issued(_ token: String) { state.withLock { $0.unconfirmed = token } }

    /// Notes that the server accepted `token`: the refresh that issued it was no loop.
    func confirm(_ token: String) {
        state.withLock { if $0.unconfirmed == token { $0.unconfirmed = nil } }
    }

    /// Counts a refusal of `token` when a refresh issued it and the server never accepted it;
    /// whether that makes `limit` refusals within its window, which ends the session.
    func countRefusal(of token: String, at time: Date, limit: (count: Int, window: TimeInterval)) -> Bool {
        state.withLock { state in
            guard state.unconfirmed == token else { return false }
            state.unconfirmed = nil
            state.refusals.removeAll { time.timeIntervalSince($0) >= limit.window }
            state.refusals.append(time)
            guard state.refusals.count >= limit.count else { return false }
            state.refusals.removeAll()
            return true
        }
    }

    /// Forgets the issued token, when the session ends.
    func forgetIssued() { state.withLock { $0.unconfirmed = nil } }

    /// Notes that `generation` ends because its tokens could not be renewed; `nil` withdraws it.
    func noteExpired(_ generation: UInt64?) { state.withLock { $0.expired = generation } }

    /// Whether `generation` ended because its tokens could not be renewed (rather than by a
    /// sign-out or a sign-in).
    func hasExpired(_ generation: UInt64) -> Bool { state.withLock { $0.expired == generation } }

    // MARK: Ledgers of the app's own storages

    private static let registry = Registry()

    /// The ledgers of storages of the app's own, by object, held no longer than the storage.
    private final class Registry: Sendable {
        private struct Entry {
            weak var storage: AnyObject?
            let ledger: TokenLedger
        }

        private let entries = Locked<[ObjectIdentifier: Entry]>([:])

        func ledger(for storage: any TokenStorage) -> TokenLedger {
            guard type(of: storage) is AnyClass else { return TokenLedger(countsItsOwnChanges: false) }
            let object = storage as AnyObject
            let id = ObjectIdentifier(object)
            return entries.withLock { entries in
                if let entry = entries[id], entry.storage === object { return entry.ledger }
                entries = entries.filter { $0.value.storage != nil }
                let ledger = TokenLedger(countsItsOwnChanges: false)
                entries[id] = Entry(storage: object, ledger: ledger)
                return ledger
            }
        }
    }
}

/// A storage of this module, which keeps its own ledger and reports every change to it, under
/// the lock that guards its pair.
protocol LedgerKeepingTokenStorage: TokenStorage {
    /// The storage's ledger.
    var ledger: TokenLedger { get }

    /// Replaces `expected` with `replacement` (`nil` clears) only while the storage holds
    /// `expected` in session `generation` (any session for `nil`), checked and changed under
    /// the lock that guards the pair; whether it did.
    func replace(_ expected: TokenPair, with replacement: TokenPair?, inSession generation: UInt64?)
        async throws -> Bool
}

extension LedgerKeepingTokenStorage {
    /// Whether the storage is in session `generation`; every session matches `nil`. Called
    /// under the storage's lock, where its generation cannot move.
    func isIn(session generation: UInt64?) -> Bool {
        generation.map { $0 == ledger.generation } ?? true
    }
}
