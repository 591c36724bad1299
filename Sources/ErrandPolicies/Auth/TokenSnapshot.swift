import Errand

/// The pair the auth policies on one storage last read, valid while the storage's revision is
/// the one it was read at; kept in the storage's ``TokenLedger``.
///
/// Why it stays coherent with the session:
/// - it is made only by a plain read (never by the read inside a refresh), only when no refresh
///   is running, tagged with the revision read *before* the storage was read;
/// - every change of the storage (a refresh's write, a session that ends, the app's own `clear()`
///   or `write(_:)` on sign-out or sign-in) moves the revision, so the copy stops matching;
/// - a refresh that starts drops it, so that requests made meanwhile join the refresh instead
///   of sending the refused token;
/// - a pair that expires within the leeway is never handed out from it: the session refreshes it.
struct TokenSnapshot: Sendable {
    /// The stored pair, or `nil` for a storage that held none (signed out).
    let tokens: TokenPair?
    /// The storage's revision read before the pair was.
    let revision: UInt64
}
