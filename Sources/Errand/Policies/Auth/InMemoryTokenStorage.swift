import ErrandSync

/// Token storage in memory, for tests and for apps that sign in on every launch.
public final class InMemoryTokenStorage: TokenStorage {
    private let tokens: Locked<TokenPair?>

    /// Creates a storage holding `tokens`.
    public init(_ tokens: TokenPair? = nil) {
        self.tokens = Locked(tokens)
    }

    /// The stored pair.
    public func read() async throws -> TokenPair? {
        tokens.withLock { $0 }
    }

    /// Replaces the stored pair.
    public func write(_ tokens: TokenPair) async throws {
        self.tokens.withLock { $0 = tokens }
    }

    /// Removes the stored pair.
    public func clear() async throws {
        tokens.withLock { $0 = nil }
    }
}
