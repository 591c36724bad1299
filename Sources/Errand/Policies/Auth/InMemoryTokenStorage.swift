import ErrandSync

/// Token storage in memory, for tests and for apps that sign in on every launch.
public final class InMemoryTokenStorage: TokenStorage, RevisionedTokenStorage {
    private struct State {
        var tokens: TokenPair?
        var revision: UInt64 = 0
    }

    private let state: Locked<State>

    /// Creates a storage holding `tokens`.
    public init(_ tokens: TokenPair? = nil) {
        self.state = Locked(State(tokens: tokens))
    }

    /// The stored pair.
    public func read() async throws -> TokenPair? {
        state.withLock { $0.tokens }
    }

    /// Replaces the stored pair.
    public func write(_ tokens: TokenPair) async throws {
        state.withLock { state in
            state.tokens = tokens
            state.revision &+= 1
        }
    }

    /// Removes the stored pair.
    public func clear() async throws {
        state.withLock { state in
            state.tokens = nil
            state.revision &+= 1
        }
    }

    var revision: UInt64 { state.withLock { $0.revision } }
}
