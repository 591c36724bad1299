import Errand
import ErrandPolicies
import ErrandState
import ErrandSync
import ErrandTestSupport
import Testing

/// A sign-in screen that goes away while its tokens are being stored (a slow Keychain write)
/// signs nobody in, and an account switch back to a saved pair is a session of its own.
@MainActor @Suite struct SignInScreenClosedTests {
    let clock = ManualClock()
    let dispatcher: InMemoryDispatcher

    init() {
        dispatcher = InMemoryDispatcher(clock: clock)
        dispatcher.stub(
            .post, "/login", response: .json(Tokens(accessToken: "bob", refreshToken: nil, user: "bob")))
    }

    enum Ending: String, CaseIterable, Sendable {
        case released, cancelled
    }

    func makeModel(_ auth: AuthState) -> LoginViewModel<Credentials, Tokens> {
        LoginViewModel(
            auth: auth, dispatcher: dispatcher,
            request: { _ in Request<Tokens>(.post("/login").authentication(.none)) },
            tokens: { TokenPair(accessToken: $0.accessToken, refreshToken: $0.refreshToken) })
    }

    /// Submits a sign-in, holds its write, ends the screen as `ending` says, then lets the write
    /// finish.
    func closeWhileStored(_ ending: Ending, auth: AuthState, storage: HeldTokenStorage) async {
        var model: LoginViewModel<Credentials, Tokens>? = makeModel(auth)
        storage.holdWrites()
        let task = model?.submit(Credentials(email: "bob@example.com", password: "pw"))
        await waitUntil("the tokens are being stored") { storage.heldWrites == 1 }
        switch ending {
        case .released: model = nil
        case .cancelled: model?.cancel()
        }
        storage.releaseWrites()
        await task?.value
        #expect(model?.isSubmitting != true)
    }

    @Test(arguments: Ending.allCases)
    func aScreenClosedWhileItsTokensAreStoredSignsNobodyIn(ending: Ending) async throws {
        // Given nobody signed in, and a storage that writes slowly
        let storage = HeldTokenStorage()
        let auth = AuthState(storage: storage)
        let events = auth.events()
        // When the screen goes away while the answer's tokens are stored
        await closeWhileStored(ending, auth: auth, storage: storage)
        // Then nothing of it is kept and nobody was announced
        #expect(!auth.isLoggedIn)
        #expect(try await storage.read() == nil)
        try await auth.logIn(tokens: TokenPair(accessToken: "cy"))
        #expect(await AuthStateTests.first(1, of: events) == [.loggedIn])
    }

    @Test(arguments: Ending.allCases)
    func aSwitchClosedWhileItsTokensAreStoredSignsThePreviousUserOut(ending: Ending) async throws {
        // Given Ada signed in, and a switch to Bob whose tokens are stored slowly
        let storage = HeldTokenStorage()
        let clears = Locked(0)
        let auth = AuthState(storage: storage, alsoClear: { clears.withLock { $0 += 1 } })
        try await auth.logIn(tokens: TokenPair(accessToken: "ada"))
        let events = auth.events()
        // When the screen goes away while they replace Ada's
        await closeWhileStored(ending, auth: auth, storage: storage)
        // Then Bob is not signed in, and Ada, whose tokens are gone, is signed out as such
        #expect(!auth.isLoggedIn)
        #expect(try await storage.read() == nil)
        #expect(clears.withLock { $0 } == 1)
        #expect(await AuthStateTests.first(1, of: events) == [.loggedOut])
    }

    @Test func aRefreshOfTheFirstSessionLeavesASwitchBackToItsPairAlone() async throws {
        struct InvalidGrant: Error {}
        // Given Ada's request waiting for a refresh that will be refused, on a storage of the
        // app's own
        let ada = TokenPair(accessToken: "ada", refreshToken: "ada-r")
        let storage = HeldTokenStorage()
        let auth = AuthState(storage: storage)
        try await auth.logIn(tokens: ada)
        dispatcher.stub(.get, "/me", response: .status(401))
        let expiries = Locked(0)
        let api = dispatcher.authenticating(
            storage: storage,
            refresh: { [clock] _ in
                try await clock.sleep(for: .seconds(5))
                throw InvalidGrant()
            },
            onSessionExpired: { expired in
                expiries.withLock { $0 += 1 }
                auth.sessionExpiredHandler(expired)
            })
        let read = Task { try await Request<String>(.get("/me")).execute(dispatcher: api) }
        await clock.waitForSleepers()
        // When the app switches to Bob and back to Ada's saved pair before the refusal arrives
        try await auth.switchAccount(tokens: TokenPair(accessToken: "bob"))
        try await auth.switchAccount(tokens: ada)
        clock.advance(by: .seconds(5))
        // Then Ada's new session keeps its tokens and nobody hears of an expiry
        let error = await #expect(throws: NetworkError.self) { try await read.value }
        #expect(error?.code == .sessionEnded)
        #expect(try await storage.read() == ada)
        #expect(expiries.withLock { $0 } == 0)
        #expect(auth.isLoggedIn)
    }
}
