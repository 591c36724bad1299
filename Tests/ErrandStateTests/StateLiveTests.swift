import Errand
import ErrandPolicies
import ErrandState
import ErrandTestSupport
import Foundation
import Testing

/// The list and sign-in view models end to end, through `URLSessionDispatcher`, against httpbin
/// and the token server from `Tests/Support`.
@MainActor
@Suite(.enabled(if: LiveServer.httpbinAvailable && LiveServer.tokenAvailable, LiveServer.skipReason))
struct StateLiveTests {
    /// httpbin's `/anything` echo: the query items it was sent.
    struct Echo: Decodable, Sendable {
        let args: [String: String]
    }

    struct Protected: Decodable, Sendable {
        let ok: Bool
        let token: String
    }

    @Test func aListPagesThroughHttpbinToTheEnd() async throws {
        // Given a list of three one-item pages served by httpbin's echo
        let api = URLSessionDispatcher(
            baseURL: try LiveServer.require(LiveServer.httpbin, "ERRAND_HTTPBIN_URL"))
        let model = ListViewModel<String>(
            dispatcher: api, pagination: .pages(size: 1),
            request: { query in Request<Echo>(.get("/anything").query("page", "\(query.page)")) },
            page: { echo in
                let page = echo.args["page"] ?? "?"
                return ListPage(["item \(page)"], hasMore: page != "3")
            })

        // When it loads, and asks for next pages until the end, several times per page
        await model.load().value
        while model.hasMore {
            let next = model.loadNextPage()
            model.loadNextPage()
            await next.value
            if model.nextPageError != nil { break }
        }

        // Then it holds every page once, in order
        #expect(model.nextPageError == nil)
        #expect(model.items == ["item 1", "item 2", "item 3"])
        #expect(model.state.error == nil)
    }

    @Test func aSignInStoresTokensTheServerThenAccepts() async throws {
        // Given the token server, an auth state and a stack that authenticates from its storage
        let base = try LiveServer.require(LiveServer.token, "ERRAND_TOKEN_URL")
        let client = "state-\(UUID().uuidString)"
        let transport = URLSessionDispatcher(baseURL: base)
        let auth = AuthState(storage: InMemoryTokenStorage())
        let api = transport.authenticating(
            storage: auth.storage, refresh: { $0 }, onSessionExpired: auth.sessionExpiredHandler)
        let events = auth.events()
        let login = LoginViewModel<Credentials, Tokens>(
            auth: auth, dispatcher: api,
            request: { _ in Request<Tokens>(.post("/login").query("client", client).authentication(.none)) },
            tokens: { TokenPair(accessToken: $0.accessToken, refreshToken: $0.refreshToken) })

        // When the user signs in
        await login.submit(Credentials(email: "ada@example.com", password: "pw")).value

        // Then the tokens are stored, listeners hear it, and a protected call is accepted with them
        #expect(login.error == nil)
        #expect(auth.isLoggedIn)
        let stored = try #require(try await auth.storage.read())
        #expect(stored.accessToken.hasPrefix("at-"))
        #expect(await AuthStateTests.first(1, of: events) == [.loggedIn])
        let screen = NetworkViewModel(
            Request<Protected>(.get("/protected").query("client", client)), dispatcher: api)
        await screen.load().value
        #expect(screen.value?.ok == true)
        #expect(screen.value?.token == stored.accessToken)
    }
}
