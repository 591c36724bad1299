import Errand
import ErrandSync

/// Token storage in memory, for tests and for apps that sign in on every launch.
///
/// Every ``write(_:)`` and ``clear()`` starts a new session for the auth policies on it;
/// ``replace(_:with:)`` is atomic with both.
public final class InMemoryTokenStorage: TokenStorage, LedgerKeepingTokenStorage {
    private let tokens: Locked<TokenPair?>
    let ledger = TokenLedger(countsItsOwnChanges: true)

    /// Creates a storage holding `tokens`.
    public init(_ tokens: TokenPair? = nil) {
        self.tokens = Locked(tokens)
    }

    /// The stored pair.
    public func read() async throws -> TokenPair? {
        tokens.withLock { $0 }
    }

    /// Replaces the stored pair, as a new session.
    public func write(_ tokens: TokenPair) async throws {
        change(to: tokens)
    }

    /// Removes the stored pair, ending the session.
    public func clear() async throws {
        change(to: nil)
    }

    /// Replaces the stored pair only if it is still `expected`, atomically.
    ///
    /// - Parameters:
    ///   - expected: The pair the change was computed from.
    ///   - replacement: The new pair, or `nil` to remove it.
    /// - Returns: Whether the storage held `expected` and was changed.
    public func replace(_ expected: TokenPair, with replacement: TokenPair?) async throws -> Bool {
        try await replace(expected, with: replacement, inSession: nil)
    }

    func replace(_ expected: TokenPair, with replacement: TokenPair?, inSession generation: UInt64?)
        async throws -> Bool
    {
        tokens.withLock { tokens in
            guard tokens == expected, isIn(session: generation) else { return false }
            tokens = replacement
            // A refresh continues the session; a clear ends it.
            if replacement == nil { ledger.advance() } else { ledger.touch() }
            return true
        }
    }

    private func change(to tokens: TokenPair?) {
        self.tokens.withLock { stored in
            stored = tokens
            ledger.advance()
        }
    }
}
