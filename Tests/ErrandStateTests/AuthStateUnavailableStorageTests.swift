import Errand
import ErrandState
import ErrandSync
import Testing

/// A storage out of reach for a while (the keychain of a locked device) reaches the app as
/// `tokenStorageUnavailable`, never as a storage to clear and sign in again, and leaves the
/// state as it was.
@MainActor @Suite struct AuthStateUnavailableStorageTests {
    /// A storage that holds a pair, and answers as a locked keychain does while `locked`.
    final class LockableStorage: TokenStorage {
        let tokens = Locked<TokenPair?>(TokenPair(accessToken: "a"))
        let locked = Locked(true)

        func read() async throws -> TokenPair? {
            try check()
            return tokens.withLock { $0 }
        }

        func write(_ tokens: TokenPair) async throws {
            try check()
            self.tokens.withLock { $0 = tokens }
        }

        func clear() async throws {
            try check()
            tokens.withLock { $0 = nil }
        }

        private func check() throws {
            guard locked.withLock({ $0 }) else { return }
            throw NetworkError(
                code: .tokenStorageUnavailable, message: "The keychain is temporarily unavailable.")
        }
    }

    @Test func aRestoreOnALockedDeviceSaysSoAndCanBeTriedAgain() async throws {
        // Given a stored sign-in on a locked device
        let storage = LockableStorage()
        let auth = AuthState(storage: storage)

        // When the app restores it at launch
        let error = try await #require(throws: NetworkError.self) { try await auth.restore() }

        // Then the error keeps its code and message, which do not ask for a sign-in
        #expect(error.code == .tokenStorageUnavailable)
        #expect(error.message == "The keychain is temporarily unavailable.")
        #expect(!error.userMessage.lowercased().contains("sign in"))
        #expect(!auth.isLoggedIn)

        // When the device is unlocked and the app tries again, the user is signed in
        storage.locked.withLock { $0 = false }
        try await auth.restore()
        #expect(auth.isLoggedIn)
    }

    @Test func aSignInOnALockedDeviceKeepsTheStateAndTheCode() async throws {
        // Given a signed-in state whose storage then becomes unavailable
        let storage = LockableStorage()
        storage.locked.withLock { $0 = false }
        let auth = AuthState(storage: storage)
        try await auth.restore()
        storage.locked.withLock { $0 = true }

        // When another sign-in cannot be stored
        let error = try await #require(throws: NetworkError.self) {
            try await auth.logIn(tokens: TokenPair(accessToken: "b"))
        }

        // Then it says the storage is unavailable, and the previous sign-in stands
        #expect(error.code == .tokenStorageUnavailable)
        #expect(auth.isLoggedIn)
        #expect(storage.tokens.withLock { $0 } == TokenPair(accessToken: "a"))
    }
}
