import Errand
import ErrandPolicies
import ErrandState
import ErrandSync
import ErrandTestSupport
import Testing

@MainActor @Suite struct AuthStateTests {
    struct RefreshRefused: Error {}

    /// Reads the first `count` events of a stream.
    static func first(_ count: Int, of events: AsyncStream<AuthEvent>) async -> [AuthEvent] {
        var received: [AuthEvent] = []
        for await event in events {
            received.append(event)
            if received.count == count { break }
        }
        return received
    }

    @Test func sessionExpiryFromTheAuthPolicyReachesEveryListener() async throws {
        // Given an auth state wired to the auth policy, signed in with a token the server refuses
        let storage = InMemoryTokenStorage()
        let auth = AuthState(storage: storage)
        try await auth.logIn(tokens: TokenPair(accessToken: "old", refreshToken: "r"), user: "ada")
        let server = InMemoryDispatcher()
        server.stub(.get, "/me", response: .status(401))
        let api = server.authenticating(
            storage: storage, refresh: { _ in throw RefreshRefused() },
            onSessionExpired: auth.sessionExpiredHandler)
        let first = auth.events()
        let second = auth.events()

        // When a request finds the session cannot be renewed
        await #expect(throws: NetworkError.self) {
            try await Request<String>(.get("/me")).execute(dispatcher: api)
        }

        // Then both listeners hear it, and the state is signed out
        async let one = Self.first(1, of: first)
        async let two = Self.first(1, of: second)
        #expect(await one == [.sessionExpired])
        #expect(await two == [.sessionExpired])
        #expect(!auth.isLoggedIn)
        #expect(auth.user == nil)
        #expect(try await storage.read() == nil)
    }

    @Test func everyListenerReceivesEveryEventInOrder() async throws {
        // Given three listeners
        let auth = AuthState(storage: InMemoryTokenStorage())
        let streams = [auth.events(), auth.events(), auth.events()]

        // When the user signs in, out, in again, and the session expires
        try await auth.logIn(tokens: TokenPair(accessToken: "a"))
        try await auth.logout()
        try await auth.logIn(tokens: TokenPair(accessToken: "b"))
        await auth.sessionDidExpire()

        // Then each listener has all four events, in order
        for stream in streams {
            #expect(await Self.first(4, of: stream) == [.loggedIn, .loggedOut, .loggedIn, .sessionExpired])
        }
    }

    @Test func logoutClearsTheStorageAndWhatElseItWasToldTo() async throws {
        // Given a signed-in state with a cache to clear
        let storage = InMemoryTokenStorage()
        let cleared = Locked(0)
        let auth = AuthState(storage: storage, alsoClear: { cleared.withLock { $0 += 1 } })
        try await auth.logIn(tokens: TokenPair(accessToken: "a", refreshToken: "r"), user: "ada")
        #expect(auth.isLoggedIn)
        #expect(auth.user(as: String.self) == "ada")
        let events = auth.events()

        // When the user signs out
        try await auth.logout()

        // Then the tokens, the user and the cache are gone, and listeners hear it
        #expect(try await storage.read() == nil)
        #expect(!auth.isLoggedIn)
        #expect(auth.user == nil)
        #expect(cleared.withLock { $0 } == 1)
        #expect(await Self.first(1, of: events) == [.loggedOut])
    }

    @Test func aStorageThatCannotClearStillSignsOutAndSaysSo() async {
        // Given a storage that fails
        let auth = AuthState(storage: BrokenTokenStorage())

        // When the user signs out
        do {
            try await auth.logout()
            Issue.record("expected a token storage error")
        } catch let error as NetworkError {
            // Then the error names the storage, and the state is signed out anyway
            #expect(error.code == .tokenStorage)
        } catch {
            Issue.record("unexpected error: \(error)")
        }
        #expect(!auth.isLoggedIn)
    }

    @Test func restoreReadsWhetherTokensAreStored() async throws {
        let signedIn = AuthState(storage: InMemoryTokenStorage(TokenPair(accessToken: "a")))
        try await signedIn.restore()
        #expect(signedIn.isLoggedIn)
        let signedOut = AuthState(storage: InMemoryTokenStorage())
        try await signedOut.restore()
        #expect(!signedOut.isLoggedIn)
    }

    @Test func aListenerThatStopsIsNoLongerSentEvents() async throws {
        // Given a listener that leaves after the first event
        let auth = AuthState(storage: InMemoryTokenStorage())
        let events = auth.events()
        let reader = Task { await Self.first(1, of: events) }
        try await auth.logIn(tokens: TokenPair(accessToken: "a"))
        #expect(await reader.value == [.loggedIn])

        // When more events come, they go nowhere and nothing grows
        try await auth.logout()
        let later = auth.events()
        try await auth.logIn(tokens: TokenPair(accessToken: "b"))
        #expect(await Self.first(1, of: later) == [.loggedIn])
    }
}
