import Errand
import ErrandPolicies
import ErrandTestSupport
import Foundation
import Testing

/// The auth policy against the token server from `Tests/Support/token_server.py`.
@Suite(.enabled(if: LiveServer.tokenAvailable, LiveServer.skipReason))
struct AuthLiveTests {
    typealias Counter = AuthenticatingDispatcherTests.Counter

    struct Stats: Decodable, Sendable {
        let refreshes: Int
        let accepted: Int
        let refused: Int
        let outages: Int
    }

    /// The token server, under a client of its own so that parallel tests do not mix.
    static func clientURL() throws -> URL {
        try LiveServer.require(LiveServer.token, "ERRAND_TOKEN_URL").appending(
            path: "clients/\(UUID().uuidString)")
    }

    /// Makes the token endpoints answer `status` (0: normally again).
    static func setTokenStatus(_ status: Int, on transport: URLSessionDispatcher) async throws {
        _ = try await Request<Data>(.post("/control").body(.json(["token_status": status]))).execute(
            dispatcher: transport)
    }

    @Test func aTokenEndpointOutageNeverSignsTheUserOut() async throws {
        // Given signed-in tokens the server has already expired, and an OAuth refresh
        let transport = URLSessionDispatcher(baseURL: try Self.clientURL())
        let login = try await Request<OAuthTokenResponse>(.post("/login").query("ttl", "0"))
            .execute(dispatcher: transport)
        let signedIn = TokenPair(accessToken: login.accessToken, refreshToken: login.refreshToken)
        let storage = InMemoryTokenStorage(signedIn)
        let expiries = Counter()
        let api = transport.authenticating(
            storage: storage,
            refresh: { tokens, transport in
                let refresh = RequestData.post("/token").body(
                    .form(["grant_type": "refresh_token", "refresh_token": tokens.refreshToken ?? ""]))
                let answer = try await Request<OAuthTokenResponse>(refresh).execute(dispatcher: transport)
                return answer.tokenPair(replacing: tokens)
            }, onSessionExpired: { _ in expiries.increment() })

        // When the token endpoint answers 503 to 20 requests in a row
        try await Self.setTokenStatus(503, on: transport)
        for attempt in 1...20 {
            do {
                _ = try await Request<EmptyResponse>(.get("/protected")).execute(dispatcher: api)
                Issue.record("request \(attempt) succeeded during the outage")
            } catch let error as NetworkError {
                // Then each fails with the 503, and the session is kept
                #expect(error.code == .unacceptableStatus, "request \(attempt): \(error)")
                #expect(error.statusCode == 503)
            } catch {
                Issue.record("unexpected error: \(error)")
            }
        }
        #expect(expiries.count == 0)
        #expect(try await storage.read() == signedIn)

        // When the endpoint is back, the next request refreshes and succeeds
        try await Self.setTokenStatus(0, on: transport)
        _ = try await Request<EmptyResponse>(.get("/protected")).execute(dispatcher: api)
        #expect(expiries.count == 0)
        #expect(try await storage.read()?.refreshToken != login.refreshToken)
        let stats = try await Request<Stats>(.get("/stats")).execute(dispatcher: transport)
        #expect(stats.outages == 20)
        #expect(stats.refreshes == 1)
        #expect(stats.accepted == 1)
    }

    @Test func aRefusedRefreshTokenEndsTheSessionOnce() async throws {
        // Given a refresh token the server does not know
        let transport = URLSessionDispatcher(baseURL: try Self.clientURL())
        let storage = InMemoryTokenStorage(TokenPair(accessToken: "at-unknown", refreshToken: "rt-unknown"))
        let expiries = Counter()
        let api = transport.authenticating(
            storage: storage,
            refresh: { tokens, transport in
                let refresh = RequestData.post("/token").body(
                    .form(["grant_type": "refresh_token", "refresh_token": tokens.refreshToken ?? ""]))
                return try await Request<OAuthTokenResponse>(refresh).execute(dispatcher: transport)
                    .tokenPair(replacing: tokens)
            }, onSessionExpired: { _ in expiries.increment() })

        // When a request is refused and the refresh gets invalid_grant (400)
        let error = await #expect(throws: NetworkError.self) {
            try await Request<EmptyResponse>(.get("/protected")).execute(dispatcher: api)
        }

        // Then the session ends, once
        #expect(error?.code == .sessionExpired)
        #expect(expiries.count == 1)
        #expect(try await storage.read() == nil)
    }
}
