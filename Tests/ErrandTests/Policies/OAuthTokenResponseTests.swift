import Errand
import ErrandPolicies
import ErrandTestSupport
import Foundation
import Testing

/// OAuth 2 token answers, `expiresIn`, and the refresh closure that is handed the transport.
@Suite struct OAuthTokenResponseTests {
    typealias Counter = AuthenticatingDispatcherTests.Counter

    static let now = Date(timeIntervalSinceReferenceDate: 800_000_000)

    static func decode(_ json: String) throws -> OAuthTokenResponse {
        try JSONDecoder().decode(OAuthTokenResponse.self, from: Data(json.utf8))
    }

    @Test func decodesTheStandardAnswer() throws {
        let answer = try Self.decode(
            #"{"access_token": "a", "refresh_token": "r", "expires_in": 3600, "token_type": "Bearer", "scope": "x"}"#
        )
        #expect(
            answer
                == OAuthTokenResponse(
                    accessToken: "a", refreshToken: "r", expiresIn: 3600, tokenType: "Bearer", scope: "x"))
    }

    @Test func acceptsALifetimeAsAStringAndCamelCaseKeys() throws {
        #expect(try Self.decode(#"{"access_token": "a", "expires_in": "60"}"#).expiresIn == 60)
        let camel = try Self.decode(#"{"accessToken": "a", "refreshToken": "r", "expiresIn": 5}"#)
        #expect(camel.accessToken == "a" && camel.refreshToken == "r" && camel.expiresIn == 5)
        let snakeDecoder = JSONDecoder()
        snakeDecoder.keyDecodingStrategy = .convertFromSnakeCase
        let converted = try snakeDecoder.decode(
            OAuthTokenResponse.self, from: Data(#"{"access_token": "a", "expires_in": 5}"#.utf8))
        #expect(converted.accessToken == "a" && converted.expiresIn == 5)
    }

    @Test func refusesAnAnswerWithoutAnAccessToken() {
        #expect(throws: DecodingError.self) { try Self.decode(#"{"error": "invalid_grant"}"#) }
        #expect(throws: DecodingError.self) {
            try Self.decode(#"{"access_token": "a", "expires_in": "soon"}"#)
        }
    }

    @Test func becomesATokenPairThatKeepsTheOldRefreshTokenWhenNoneIsSent() {
        let previous = TokenPair(accessToken: "old", refreshToken: "keep")
        let pair = OAuthTokenResponse(accessToken: "a", expiresIn: 90).tokenPair(
            replacing: previous, now: Self.now)
        #expect(pair == TokenPair(accessToken: "a", refreshToken: "keep", expiresAt: Self.now + 90))
        let rotated = OAuthTokenResponse(accessToken: "a", refreshToken: "new").tokenPair(replacing: previous)
        #expect(rotated == TokenPair(accessToken: "a", refreshToken: "new"))
    }

    @Test func tokenPairTakesALifetimeInSeconds() {
        #expect(
            TokenPair(accessToken: "a", expiresIn: 30, now: Self.now)
                == TokenPair(accessToken: "a", expiresAt: Self.now.addingTimeInterval(30)))
        #expect(TokenPair(accessToken: "a", expiresIn: nil).expiresAt == nil)
    }

    @Test func describesItselfWithoutTheTokens() {
        let answer = OAuthTokenResponse(accessToken: "secret-a", refreshToken: "secret-r", expiresIn: 1)
        #expect(!answer.description.contains("secret"))
    }

    @Test func theRefreshClosureSendsThroughTheDispatcherBeneathThePolicy() async throws {
        // Given an OAuth token endpoint and a stored token that expires within the leeway
        let server = AuthenticatingDispatcherTests.server(accepting: "fresh")
        server.stub(
            .post, "/token",
            response: .json(["access_token": "fresh", "refresh_token": "r2", "expires_in": "3600"]))
        let storage = InMemoryTokenStorage(
            TokenPair(accessToken: "stale", refreshToken: "r1", expiresAt: Self.now + 10))
        let api = server.authenticating(
            storage: storage,
            refresh: { tokens, transport in
                let refresh = RequestData.post("/token").body(
                    .form(["grant_type": "refresh_token", "refresh_token": tokens.refreshToken ?? ""]))
                let answer = try await Request<OAuthTokenResponse>(refresh).execute(dispatcher: transport)
                return answer.tokenPair(replacing: tokens, now: Self.now)
            }, leeway: 30, now: { Self.now })

        // When a request is sent
        #expect(try await Request<String>(.get("/me")).execute(dispatcher: api) == "hello fresh")

        // Then the refresh went straight to the server, without a bearer token
        let refresh = try #require(server.receivedRequests.first { $0.path == "/token" })
        #expect(refresh.headers["Authorization"] == nil)
        #expect(refresh.body?.formFields.map(\.value) == ["refresh_token", "r1"])
        #expect(
            try await storage.read()
                == TokenPair(accessToken: "fresh", refreshToken: "r2", expiresAt: Self.now + 3600))
    }

    /// A refresher of its own type, to show the protocol form takes the same options.
    struct Refresher: TokenRefresher {
        let refreshes: Counter
        func refresh(_ current: TokenPair) async throws -> TokenPair {
            TokenPair(
                accessToken: "fresh",
                expiresAt: OAuthTokenResponseTests.now + 3600 * Double(refreshes.increment()))
        }
    }

    @Test func theRefresherFormTakesLeewayAndClock() async throws {
        // Given a token that expires in 100 s, and a leeway of 120 s on an injected clock
        let refreshes = Counter()
        let server = AuthenticatingDispatcherTests.server(accepting: "fresh")
        let api = server.authenticating(
            storage: InMemoryTokenStorage(TokenPair(accessToken: "stale", expiresAt: Self.now + 100)),
            refresher: Refresher(refreshes: refreshes), leeway: 120, maximumRefreshes: 1, within: 60,
            now: { Self.now })

        // When two requests are sent, then the first refreshes ahead of time and the second does not
        #expect(try await Request<String>(.get("/me")).execute(dispatcher: api) == "hello fresh")
        #expect(try await Request<String>(.get("/me")).execute(dispatcher: api) == "hello fresh")
        #expect(refreshes.count == 1)
        #expect(server.receivedRequests.allSatisfy { $0.headers["Authorization"] == "Bearer fresh" })
    }
}
