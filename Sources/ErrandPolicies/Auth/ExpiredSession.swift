import Errand

/// A session that the auth policy ended because its tokens could not be renewed, as its
/// `onSessionExpired` hook hears of it.
///
/// The hook is called only for the session the storage still held when the refresh failed: a
/// refresh that outlived a sign-out or an account switch ends nothing and calls no hook.
/// `AuthState`'s handler compares ``generation`` with the session it signed in, so an expiry
/// that arrives after the user already signed out (or signed in as someone else) is ignored.
public struct ExpiredSession: Hashable, Sendable, CustomStringConvertible {
    /// The storage's session generation that ended; a sign-in, a sign-out and an expiry each
    /// start a new one.
    public let generation: UInt64
    /// Why it ended, for a log line.
    public let reason: String
    /// The ledger (by its salt) whose generation ``generation`` is; `nil` when made by the app.
    package let ledgerSalt: UInt64?

    /// Creates the description of an ended session.
    ///
    /// - Parameters:
    ///   - generation: The generation that ended.
    ///   - reason: Why it ended.
    public init(generation: UInt64, reason: String) {
        self.generation = generation
        self.reason = reason
        self.ledgerSalt = nil
    }

    /// The description of a session of `ledger` that ended.
    init(generation: UInt64, reason: String, of ledger: TokenLedger) {
        self.generation = generation
        self.reason = reason
        self.ledgerSalt = ledger.salt
    }

    /// `session 3 expired: <reason>`, the reason (a refresher's error text) on one line, escaped.
    public var description: String { "session \(generation) expired: \(EscapedText.line(reason))" }
}
