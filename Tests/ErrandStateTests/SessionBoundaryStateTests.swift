import Errand
import ErrandPolicies
import ErrandState
import ErrandSync
import ErrandTestSupport
import Testing

/// The state layer across users: view models die with their screens, `AuthState` never undoes a
/// sign-out nor signs out the next user, and an account switch clears what a sign-out clears.
@MainActor @Suite struct SessionBoundaryStateTests {
    let clock = ManualClock()
    let dispatcher: InMemoryDispatcher
    let storage = InMemoryTokenStorage()

    init() {
        dispatcher = InMemoryDispatcher(clock: clock)
    }

    @Test func aReleasedSignInScreenSignsNobodyIn() async throws {
        // Given a sign-in on its way
        dispatcher.stub(
            .post, "/login",
            response: .json(Tokens(accessToken: "at-1", refreshToken: "rt-1", user: "ada")).delayed(
                by: .seconds(1)))
        let auth = AuthState(storage: storage)
        var model: LoginViewModel<Credentials, Tokens>? = LoginViewModel(
            auth: auth, dispatcher: dispatcher,
            request: { _ in Request<Tokens>(.post("/login").authentication(.none)) },
            tokens: { TokenPair(accessToken: $0.accessToken, refreshToken: $0.refreshToken) })
        let released = Weak(model)
        let task = model?.submit(Credentials(email: "ada@example.com", password: "pw"))
        await clock.waitForSleepers()
        // When the sheet closes and the answer arrives anyway
        model = nil
        clock.advance(by: .seconds(1))
        await task?.value
        // Then the view model is gone, its request was cancelled, and nobody is signed in
        #expect(released.object == nil)
        #expect(try await storage.read() == nil)
        #expect(!auth.isLoggedIn)
    }

    @Test func aReleasedListStopsItsDownload() async throws {
        // Given a page on its way
        dispatcher.stub(.get, "/items", response: .json([Item].ids(1, 2)).delayed(by: .seconds(1)))
        var model: ListViewModel<Item>? = ListViewModel(dispatcher: dispatcher, pagination: .pages(size: 2)) {
            _ in Request<[Item]>(.get("/items"))
        }
        let released = Weak(model)
        let task = model?.load()
        await clock.waitForSleepers()
        // When the screen goes away
        model = nil
        // Then the view model is gone and its request is cancelled before any answer
        #expect(released.object == nil)
        await waitUntil("the download is cancelled") { clock.sleeperCount == 0 }
        await task?.value
    }

    @Test func anExpiryReportedAfterASignOutIsIgnored() async throws {
        struct InvalidGrant: Error {}
        // Given a signed-in user whose refresh is slow and will be refused
        let auth = AuthState(storage: storage)
        try await auth.logIn(tokens: TokenPair(accessToken: "old", refreshToken: "r"))
        dispatcher.stub(.get, "/me", response: .status(401))
        let api = dispatcher.authenticating(
            storage: storage,
            refresh: { [clock] _ in
                try await clock.sleep(for: .seconds(5))
                throw InvalidGrant()
            }, onSessionExpired: auth.sessionExpiredHandler)
        let events = auth.events()
        let read = Task { try await Request<String>(.get("/me")).execute(dispatcher: api) }
        await clock.waitForSleepers()
        // When the user signs out, then the refusal arrives
        try await auth.logout()
        clock.advance(by: .seconds(5))
        let error = await #expect(throws: NetworkError.self) { try await read.value }
        // Then the read ends with its session, and the user heard only the sign-out
        #expect(error?.code == .sessionEnded)
        try await auth.logIn(tokens: TokenPair(accessToken: "next"))
        #expect(await AuthStateTests.first(2, of: events) == [.loggedOut, .loggedIn])
        #expect(auth.isLoggedIn)
        #expect(try await storage.read()?.accessToken == "next")
    }

    @Test func anExpiryOfThePreviousUsersSessionNeverSignsOutTheNextUser() async throws {
        // Given user A signed in, then B, and an expiry of A's session reported late
        let auth = AuthState(storage: storage)
        try await auth.logIn(tokens: TokenPair(accessToken: "alice"))
        let aliceSession = storage.sessionGeneration
        try await auth.logIn(tokens: TokenPair(accessToken: "bob"))
        // When the late expiry arrives
        await auth.sessionDidExpire(ExpiredSession(generation: aliceSession, reason: "refused"))
        // Then B is still signed in
        #expect(auth.isLoggedIn)
        #expect(try await storage.read()?.accessToken == "bob")
    }

    @Test func anAccountSwitchClearsWhatASignOutClears() async throws {
        let clears = Locked(0)
        let auth = AuthState(storage: storage, alsoClear: { clears.withLock { $0 += 1 } })
        let events = auth.events()
        try await auth.logIn(tokens: TokenPair(accessToken: "alice"), user: "alice")
        #expect(clears.withLock { $0 } == 0)
        try await auth.switchAccount(tokens: TokenPair(accessToken: "bob"), user: "bob")
        #expect(clears.withLock { $0 } == 1)
        #expect(auth.user(as: String.self) == "bob")
        #expect(await AuthStateTests.first(3, of: events) == [.loggedIn, .loggedOut, .loggedIn])
        try await auth.logIn(tokens: TokenPair(accessToken: "carol"))
        #expect(clears.withLock { $0 } == 2)
    }
}

/// A reference that does not keep its object alive (`weak let` needs Swift 6.2).
private struct Weak<Object: AnyObject> {
    weak var object: Object?
    init(_ object: Object?) { self.object = object }
}
