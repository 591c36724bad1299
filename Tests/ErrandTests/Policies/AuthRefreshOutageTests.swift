import Errand
import ErrandPolicies
import ErrandSync
import ErrandTestSupport
import Foundation
import Testing

/// An outage of the token endpoint keeps the user signed in; only a refresh loop ends a session.
@Suite struct AuthRefreshOutageTests {
    typealias Counter = AuthenticatingDispatcherTests.Counter

    /// The token endpoint's answer, decoded by hand so the test needs nothing but `RequestType`.
    struct Issued: Codable, Sendable {
        let accessToken: String

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
        }
    }

    /// An API that accepts `Bearer good` on `GET /me`, and a token endpoint `POST /token` that
    /// issues `issued` in turn, or answers 503 while `down` holds.
    static func server(issuing issued: [String], down: Locked<Bool>) -> InMemoryDispatcher {
        let server = AuthenticatingDispatcherTests.server(accepting: "good")
        server.stub(
            InMemoryDispatcher.Stub(
                .post, "/token", responses: issued.map { .json(Issued(accessToken: $0)) }))
        server.stub(
            InMemoryDispatcher.Stub(
                .post, "/token", where: { _ in down.withLock { $0 } }, responses: [.status(503)]))
        return server
    }

    /// The policy over `server`, refreshing through `server` itself (the layer beneath).
    static func policy(
        over server: InMemoryDispatcher, storage: InMemoryTokenStorage, expiries: Counter,
        refreshes: Counter = Counter()
    ) -> AuthenticatingDispatcher {
        server.authenticating(
            storage: storage,
            refresh: { _ in
                refreshes.increment()
                let issued = try await Request<Issued>(.post("/token")).execute(dispatcher: server)
                return TokenPair(accessToken: issued.accessToken)
            },
            onSessionExpired: { _ in expiries.increment() })
    }

    @Test func twentyRequestsDuringAnOutageFailWithTheOutageAndKeepTheSession() async throws {
        // Given a stored token the API refuses, and a token endpoint answering 503
        let down = Locked(true)
        let expiries = Counter()
        let server = Self.server(issuing: ["good"], down: down)
        let storage = InMemoryTokenStorage(TokenPair(accessToken: "old", refreshToken: "r"))
        let api = Self.policy(over: server, storage: storage, expiries: expiries)

        // When 20 requests are sent in a row
        for attempt in 1...20 {
            do {
                _ = try await Request<String>(.get("/me")).execute(dispatcher: api)
                Issue.record("request \(attempt) succeeded during the outage")
            } catch let error as NetworkError {
                // Then each fails with the outage's own status, and the session stays
                #expect(error.code == .unacceptableStatus, "request \(attempt): \(error)")
                #expect(error.statusCode == 503)
            } catch {
                Issue.record("unexpected error: \(error)")
            }
        }
        #expect(expiries.count == 0)
        #expect(try await storage.read() == TokenPair(accessToken: "old", refreshToken: "r"))

        // When the endpoint is back, the next request refreshes and succeeds
        down.withLock { $0 = false }
        #expect(try await Request<String>(.get("/me")).execute(dispatcher: api) == "hello good")
        #expect(try await storage.read()?.accessToken == "good")
        #expect(expiries.count == 0)
    }

    @Test func anOutageRightAfterARefusedRefreshDoesNotEndTheSession() async throws {
        // Given a refresh whose token the API refuses (a token revoked at once), then an outage
        let down = Locked(false)
        let expiries = Counter()
        let server = Self.server(issuing: ["revoked", "good"], down: down)
        let storage = InMemoryTokenStorage(TokenPair(accessToken: "old"))
        let api = Self.policy(over: server, storage: storage, expiries: expiries)
        #expect(try await api.dispatch(.get("/me")).statusCode == 401)
        down.withLock { $0 = true }

        // When 20 requests meet the outage
        for _ in 1...20 {
            await #expect(throws: NetworkError.self) {
                try await Request<String>(.get("/me")).execute(dispatcher: api)
            }
        }

        // Then the session is kept, and the next request after the outage succeeds
        #expect(expiries.count == 0)
        #expect(try await storage.read()?.accessToken == "revoked")
        down.withLock { $0 = false }
        #expect(try await Request<String>(.get("/me")).execute(dispatcher: api) == "hello good")
        #expect(expiries.count == 0)
    }

    @Test func refreshesWhoseTokensAreAcceptedNeverReachTheCap() async throws {
        // Given a server that accepts each refreshed token once, then refuses it
        let expiries = Counter()
        let refreshes = Counter()
        let server = InMemoryDispatcher()
        server.stub(.get, "/me", response: .status(401))
        for round in 1...10 {
            server.stub(
                InMemoryDispatcher.Stub(
                    .get, "/me", where: { $0.headers["Authorization"] == "Bearer t\(round)" },
                    responses: [.text("ok"), .status(401)]))
        }
        let api = server.authenticating(
            storage: InMemoryTokenStorage(TokenPair(accessToken: "t0")),
            refresh: { _ in TokenPair(accessToken: "t\(refreshes.increment())") },
            onSessionExpired: { _ in expiries.increment() }, maximumRefreshes: 2, within: 60)

        // When ten requests each need a refresh whose token then works
        for _ in 1...10 {
            #expect(try await Request<String>(.get("/me")).execute(dispatcher: api) == "ok")
        }

        // Then none of them counts toward the cap of 2
        #expect(refreshes.count == 10)
        #expect(expiries.count == 0)
    }
}
