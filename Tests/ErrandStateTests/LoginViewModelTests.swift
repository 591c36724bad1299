import Errand
import ErrandPolicies
import ErrandState
import ErrandTestSupport
import Testing

@MainActor @Suite struct LoginViewModelTests {
    let clock = ManualClock()
    let dispatcher: InMemoryDispatcher
    let storage = InMemoryTokenStorage()
    let auth: AuthState

    init() {
        dispatcher = InMemoryDispatcher(clock: clock)
        auth = AuthState(storage: storage)
    }

    func model() -> LoginViewModel<Credentials, Tokens> {
        LoginViewModel(
            auth: auth, dispatcher: dispatcher,
            request: { credentials in
                Request<Tokens>(
                    .post("/login").body(
                        .json(["email": credentials.email, "password": credentials.password]))
                )
            },
            tokens: { answer in TokenPair(accessToken: answer.accessToken, refreshToken: answer.refreshToken)
            },
            user: { answer in answer.user })
    }

    @Test func aSignInStoresTheTokensAndEmitsLoggedIn() async throws {
        // Given a server that issues tokens, and a listener
        dispatcher.stub(
            .post, "/login",
            response: .json(Tokens(accessToken: "at-1", refreshToken: "rt-1", user: "ada"))
                .delayed(by: .seconds(1)))
        let events = auth.events()
        let model = model()

        // When the form is submitted
        let task = model.submit(Credentials(email: "ada@example.com", password: "pw"))
        #expect(model.isSubmitting)
        await clock.waitForSleepers()
        clock.advance(by: .seconds(1))
        await task.value

        // Then the pair is in the storage, the user is known, and listeners hear it
        #expect(try await storage.read() == TokenPair(accessToken: "at-1", refreshToken: "rt-1"))
        #expect(model.isLoggedIn && auth.isLoggedIn)
        #expect(auth.user(as: String.self) == "ada")
        #expect(!model.isSubmitting && model.error == nil)
        #expect(await AuthStateTests.first(1, of: events) == [.loggedIn])
    }

    @Test func aRefusedSignInStoresNothing() async throws {
        dispatcher.stub(.post, "/login", response: .status(401))
        let model = model()
        await model.submit(Credentials(email: "a", password: "wrong")).value
        #expect(model.error?.statusCode == 401)
        #expect(!auth.isLoggedIn)
        #expect(try await storage.read() == nil)
    }

    @Test func aTokenStepThatThrowsIsADecodingError() async throws {
        // Given an extraction step that finds no token
        struct NoToken: Error {}
        dispatcher.stub(
            .post, "/login", response: .json(Tokens(accessToken: "", refreshToken: nil, user: nil)))
        let model = LoginViewModel<Credentials, Tokens>(
            auth: auth, dispatcher: dispatcher,
            request: { _ in Request<Tokens>(.post("/login")) },
            tokens: { _ in throw NoToken() })

        // When the form is submitted
        await model.submit(Credentials(email: "a", password: "b")).value

        // Then the failure says the answer was unusable, and nothing is stored
        #expect(model.error?.code == .decoding)
        #expect(try await storage.read() == nil)
    }

    @Test func aStorageThatCannotWriteIsReported() async {
        dispatcher.stub(
            .post, "/login", response: .json(Tokens(accessToken: "a", refreshToken: nil, user: nil)))
        let auth = AuthState(storage: BrokenTokenStorage())
        let model = LoginViewModel<Credentials, Tokens>(
            auth: auth, dispatcher: dispatcher, request: { _ in Request<Tokens>(.post("/login")) },
            tokens: { TokenPair(accessToken: $0.accessToken) })
        await model.submit(Credentials(email: "a", password: "b")).value
        #expect(model.error?.code == .tokenStorage)
        #expect(!auth.isLoggedIn)
    }

    @Test func aSecondSubmitWhileSigningInSendsNothing() async {
        dispatcher.stub(
            .post, "/login",
            response: .json(Tokens(accessToken: "a", refreshToken: nil, user: nil)).delayed(by: .seconds(1)))
        let model = model()
        let first = model.submit(Credentials(email: "a", password: "b"))
        await clock.waitForSleepers()
        model.submit(Credentials(email: "a", password: "b"))
        await clock.waitForSleepers()
        clock.advance(by: .seconds(1))
        await first.value
        #expect(dispatcher.receivedRequests.count == 1)
        #expect(auth.isLoggedIn)
    }
}
