import Errand
import ErrandPolicies
import ErrandTestSupport
import Foundation
import Testing

/// The policies against real servers: httpbin, and the token server from `Tests/Support`.
@Suite(.enabled(if: LiveServer.httpbinAvailable && LiveServer.tokenAvailable, LiveServer.skipReason))
struct PolicyLiveTests {
    struct Bearer: Decodable, Sendable {
        let authenticated: Bool
        let token: String
    }

    @Test func sendsTheStoredTokenToHttpbin() async throws {
        let transport = URLSessionDispatcher(
            baseURL: try LiveServer.require(LiveServer.httpbin, "ERRAND_HTTPBIN_URL"))
        let dispatcher = transport.authenticating(
            storage: InMemoryTokenStorage(TokenPair(accessToken: "stored-token"))
        ) {
            $0
        }
        let bearer = try await Request<Bearer>(.get("/bearer")).execute(dispatcher: dispatcher)
        #expect(bearer.authenticated && bearer.token == "stored-token")
    }

    @Test func retriesA503UpToTheMaximumAndReportsTheAttempts() async throws {
        let clock = RecordingClock()
        let transport = URLSessionDispatcher(
            baseURL: try LiveServer.require(LiveServer.httpbin, "ERRAND_HTTPBIN_URL"))
        let policy = RetryPolicy(
            maximumAttempts: 3, backoff: .init(base: .seconds(1), multiplier: 2, jitter: .none))
        do {
            _ = try await Request<EmptyResponse>(.get("/status/503")).execute(
                dispatcher: transport.retrying(policy, clock: clock))
            Issue.record("expected the retries to give up")
        } catch let error as NetworkError {
            #expect(error.code == .unacceptableStatus)
            #expect(error.statusCode == 503)
            #expect(error.attempts == 3)
            #expect(error.message.contains("after 3 attempts"))
        } catch { Issue.record(error) }
        #expect(clock.sleeps == [.seconds(1), .seconds(2)])
    }

    @Test func fiftyConcurrentRequestsWithAnExpiredTokenMakeTheServerSeeOneRefresh() async throws {
        struct Tokens: Codable, Sendable {
            let accessToken: String
            let refreshToken: String

            enum CodingKeys: String, CodingKey {
                case accessToken = "access_token"
                case refreshToken = "refresh_token"
            }
        }
        struct Stats: Decodable, Sendable {
            let logins: Int
            let refreshes: Int
            let accepted: Int
            let refused: Int
        }
        let client = UUID().uuidString
        let transport = URLSessionDispatcher(
            baseURL: try LiveServer.require(LiveServer.token, "ERRAND_TOKEN_URL"))
        let login = try await Request<Tokens>(.post("/login").query("client", client).query("ttl", "0"))
            .execute(dispatcher: transport)
        let storage = InMemoryTokenStorage(
            TokenPair(accessToken: login.accessToken, refreshToken: login.refreshToken))
        let dispatcher = transport.authenticating(storage: storage) { tokens in
            let renewed = try await Request<Tokens>(
                .post("/refresh").query("client", client).query("delay", "0.3")
                    .body(.json(["refresh_token": tokens.refreshToken ?? ""]))
                    .authentication(.none).bypassingQueue()
            ).execute(dispatcher: transport)
            return TokenPair(accessToken: renewed.accessToken, refreshToken: renewed.refreshToken)
        }

        let probes = (0..<50).map { _ in CallbackProbe<EmptyResponse>() }
        for probe in probes {
            Request<EmptyResponse>(.get("/protected").query("client", client))
                .execute(
                    dispatcher: dispatcher, callbackQueue: nil, onSuccess: probe.onSuccess,
                    onError: probe.onError)
        }
        for probe in probes { _ = try await probe.first().get() }

        let stats = try await Request<Stats>(.get("/stats").query("client", client)).execute(
            dispatcher: transport)
        #expect(stats.refreshes == 1)
        #expect(stats.accepted == 50)
        #expect(stats.refused >= 1)
        #expect(probes.allSatisfy { $0.deliveries.count == 1 })
    }
}
