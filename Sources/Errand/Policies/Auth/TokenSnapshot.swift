import ErrandSync
import Foundation

/// A token storage that counts its changes, so that the auth policy can keep a copy of the
/// stored pair and tell, without suspending, whether that copy still holds.
///
/// The storages of this module conform; a storage of the app's own does not, and the auth
/// policy then reads it on every request, as it always did.
protocol RevisionedTokenStorage: TokenStorage {
    /// A number that changes with every ``TokenStorage/write(_:)`` and ``TokenStorage/clear()``,
    /// under the same lock as the stored pair, so that a pair read after this number was read is
    /// at least as new as the number.
    var revision: UInt64 { get }
}

/// The pair the auth policy last read from a ``RevisionedTokenStorage``, valid while the storage's
/// revision is the one it was read at.
///
/// Why it stays coherent with ``TokenSession``:
/// - it is made only by a plain read of the session (never by the read inside a refresh), only
///   when no refresh is running, tagged with the revision read *before* the storage was read;
/// - every change of the storage (a refresh's write, a session that ends, the app's own `clear()`
///   or `write(_:)` on sign-out or sign-in) moves the revision, so the copy stops matching;
/// - a refresh that starts drops it, so that requests made meanwhile join the refresh on the
///   actor instead of sending the refused token;
/// - a pair that expires within the leeway is never handed out from it: the session refreshes it.
struct TokenSnapshot: Sendable {
    /// The stored pair, or `nil` for a storage that held none (signed out).
    let tokens: TokenPair?
    /// The storage's revision read before the pair was.
    let revision: UInt64
}

extension TokenSnapshot {
    /// The copy kept by one session, behind a lock: reading it costs a request no actor hop.
    final class Slot: Sendable {
        private let storage: any RevisionedTokenStorage
        private let value = Locked<TokenSnapshot?>(nil)

        init(storage: any RevisionedTokenStorage) {
            self.storage = storage
        }

        /// The storage's revision now, to tag a read that follows.
        var revision: UInt64 { storage.revision }

        /// The kept pair when the storage has not changed since it was read; `nil` when it must be
        /// read again. `.some(nil)` means the storage holds no tokens.
        func current() -> TokenPair?? {
            guard let snapshot = value.withLock({ $0 }), snapshot.revision == storage.revision else {
                return nil
            }
            return .some(snapshot.tokens)
        }

        /// Keeps `tokens`, read at `revision`.
        func keep(_ tokens: TokenPair?, readAt revision: UInt64) {
            value.withLock { $0 = TokenSnapshot(tokens: tokens, revision: revision) }
        }

        /// Forgets the kept pair.
        func drop() {
            value.withLock { $0 = nil }
        }
    }
}
