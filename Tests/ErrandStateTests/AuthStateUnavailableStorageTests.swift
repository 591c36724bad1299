import Errand
import ErrandPolicies
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

    /// A user signed in from an unlocked storage, and an auth policy on it that answers `/me`.
    private func signedInBehindAnAuthPolicy() async throws -> (
        LockableStorage, AuthState, InMemoryDispatcher, any NetworkDispatcher
    ) {
        let storage = LockableStorage()
        storage.locked.withLock { $0 = false }
        let auth = AuthState(storage: storage)
        try await auth.restore()
        let server = InMemoryDispatcher()
        server.stub(.get, "/me", response: .status(200))
        return (storage, auth, server, server.authenticating(storage: storage, refresh: { $0 }))
    }

    @Test func aSignOutThatCannotClearTheStorageStillHoldsInThisProcess() async throws {
        // Given a signed-in user, an auth policy on the storage, and then a locked device
        let (storage, auth, server, dispatcher) = try await signedInBehindAnAuthPolicy()
        _ = try await dispatcher.dispatch(.get("/me"))
        storage.locked.withLock { $0 = true }

        // When the user signs out and the storage cannot be cleared
        let error = try await #require(throws: NetworkError.self) { try await auth.logout() }
        storage.locked.withLock { $0 = false }

        // Then the sign-out holds: no request sends the ended session's token, and a restore
        // finds nobody, although the token is still stored
        #expect(error.code == .tokenStorageUnavailable)
        #expect(!auth.isLoggedIn)
        _ = try await dispatcher.dispatch(.get("/me"))
        #expect(server.receivedRequests.map { $0.headers["Authorization"] } == ["Bearer a", nil])
        try await auth.restore()
        #expect(!auth.isLoggedIn)
        #expect(storage.tokens.withLock { $0 } == TokenPair(accessToken: "a"))

        // When the next user signs in, their token is sent; and a sign-out that clears works
        try await auth.logIn(tokens: TokenPair(accessToken: "b"))
        _ = try await dispatcher.dispatch(.get("/me"))
        #expect(server.receivedRequests.last?.headers["Authorization"] == "Bearer b")
        try await auth.logout()
        #expect(storage.tokens.withLock { $0 } == nil)
    }

    @Test func aSecondSignOutOnceUnlockedClearsTheStorage() async throws {
        // Given a sign-out that could not clear a locked storage
        let storage = LockableStorage()
        storage.locked.withLock { $0 = false }
        let auth = AuthState(storage: storage)
        try await auth.restore()
        storage.locked.withLock { $0 = true }
        _ = try? await auth.logout()

        // When the device is unlocked and the app signs out again
        storage.locked.withLock { $0 = false }
        try await auth.logout()

        // Then the tokens are gone, and a later launch finds nobody either
        #expect(storage.tokens.withLock { $0 } == nil)
        let nextLaunch = AuthState(storage: storage)
        try await nextLaunch.restore()
        #expect(!nextLaunch.isLoggedIn)
    }

    @Test func aSignInThatFailsAfterAFailedSignOutSendsNoEndedToken() async throws {
        // Given a sign-out that could not clear a locked storage
        let (storage, auth, server, dispatcher) = try await signedInBehindAnAuthPolicy()
        storage.locked.withLock { $0 = true }
        _ = try? await auth.logout()

        // When the next sign-in cannot be stored either, and the device is then unlocked
        _ = try? await auth.logIn(tokens: TokenPair(accessToken: "b"))
        storage.locked.withLock { $0 = false }

        // Then the ended session's token is still neither sent nor restored
        _ = try await dispatcher.dispatch(.get("/me"))
        #expect(server.receivedRequests.map { $0.headers["Authorization"] } == [nil])
        try await auth.restore()
        #expect(!auth.isLoggedIn)
    }
}
