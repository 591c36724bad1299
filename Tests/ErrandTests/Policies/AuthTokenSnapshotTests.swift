import ErrandSync
import ErrandTestSupport
import Foundation
import Testing

@testable import Errand
@testable import ErrandPolicies

/// The copy of the stored tokens that requests take without a hop onto the session's actor:
/// every change of the storage or of the session must reach the next request.
@Suite struct AuthTokenSnapshotTests {
    typealias Counter = AuthenticatingDispatcherTests.Counter

    /// A server that answers 200 to every `GET /me`, whatever it carries.
    static func echoServer() -> InMemoryDispatcher {
        let server = InMemoryDispatcher()
        server.stub(.get, "/me", response: .text("ok"))
        return server
    }

    static func authorization(of server: InMemoryDispatcher) -> [String?] {
        server.receivedRequests.map { $0.headers["Authorization"] }
    }

    @Test func aStorageClearedOutsideThePolicyStopsTheOldTokenAtTheNextRequest() async throws {
        let server = Self.echoServer()
        let storage = InMemoryTokenStorage(TokenPair(accessToken: "old"))
        let dispatcher = server.authenticating(storage: storage) { _ in TokenPair(accessToken: "unused") }

        _ = try await Request<String>(.get("/me")).execute(dispatcher: dispatcher)
        _ = try await Request<String>(.get("/me")).execute(dispatcher: dispatcher)
        try await storage.clear()
        _ = try await Request<String>(.get("/me")).execute(dispatcher: dispatcher)

        #expect(Self.authorization(of: server) == ["Bearer old", "Bearer old", nil])
    }

    @Test func aRequiredRequestAfterSignOutFailsWithSessionExpired() async throws {
        let server = Self.echoServer()
        let storage = InMemoryTokenStorage(TokenPair(accessToken: "old"))
        let dispatcher = server.authenticating(storage: storage) { _ in TokenPair(accessToken: "unused") }
        _ = try await Request<String>(.get("/me")).execute(dispatcher: dispatcher)

        try await storage.clear()

        await #expect(throws: NetworkError.self) {
            try await Request<String>(.get("/me").authentication(.required)).execute(dispatcher: dispatcher)
        }
        #expect(server.receivedRequests.count == 1)
    }

    @Test func tokensWrittenOutsideThePolicyReachTheNextRequest() async throws {
        let server = Self.echoServer()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: folder) }
        for storage in [
            InMemoryTokenStorage(TokenPair(accessToken: "first")) as any TokenStorage,
            FileTokenStorage(url: folder.appendingPathComponent("tokens.json")),
        ] {
            try await storage.write(TokenPair(accessToken: "first"))
            let dispatcher = server.authenticating(storage: storage) { _ in TokenPair(accessToken: "unused") }
            _ = try await Request<String>(.get("/me")).execute(dispatcher: dispatcher)

            // Another user signs in.
            try await storage.write(TokenPair(accessToken: "second"))
            _ = try await Request<String>(.get("/me")).execute(dispatcher: dispatcher)
        }

        #expect(
            Self.authorization(of: server) == [
                "Bearer first", "Bearer second", "Bearer first", "Bearer second",
            ])
    }

    @Test func theRequestAfterARefreshCarriesTheNewTokenWithoutAnotherRefresh() async throws {
        let refreshes = Counter()
        let server = AuthenticatingDispatcherTests.server(accepting: "new")
        let storage = InMemoryTokenStorage(TokenPair(accessToken: "old", refreshToken: "r"))
        let dispatcher = server.authenticating(storage: storage) { _ in
            refreshes.increment()
            return TokenPair(accessToken: "new", refreshToken: "r2")
        }

        #expect(try await Request<String>(.get("/me")).execute(dispatcher: dispatcher) == "hello new")
        #expect(try await Request<String>(.get("/me")).execute(dispatcher: dispatcher) == "hello new")
        #expect(try await Request<String>(.get("/me")).execute(dispatcher: dispatcher) == "hello new")

        #expect(refreshes.count == 1)
        #expect(Self.authorization(of: server) == ["Bearer old", "Bearer new", "Bearer new", "Bearer new"])
    }

    @Test func tokensThatComeWithinTheLeewayAreRefreshedInsteadOfTakenFromTheCopy() async throws {
        let start = Date(timeIntervalSince1970: 1_000_000)
        let time = Locked(start)
        let refreshes = Counter()
        let server = Self.echoServer()
        let storage = InMemoryTokenStorage(
            TokenPair(accessToken: "old", refreshToken: "r", expiresAt: start.addingTimeInterval(120)))
        let dispatcher = server.authenticating(
            storage: storage,
            refresh: { _ in
                refreshes.increment()
                return TokenPair(accessToken: "new", refreshToken: "r2")
            }, leeway: 60, now: { time.withLock { $0 } })

        _ = try await Request<String>(.get("/me")).execute(dispatcher: dispatcher)
        _ = try await Request<String>(.get("/me")).execute(dispatcher: dispatcher)
        time.withLock { $0 = start.addingTimeInterval(61) }
        _ = try await Request<String>(.get("/me")).execute(dispatcher: dispatcher)

        #expect(refreshes.count == 1)
        #expect(Self.authorization(of: server) == ["Bearer old", "Bearer old", "Bearer new"])
    }

    @Test func aRefreshInFlightWithdrawsTheCopySoThatRequestsJoinIt() async throws {
        let clock = ManualClock()
        let storage = InMemoryTokenStorage(TokenPair(accessToken: "old", refreshToken: "r"))
        let session = TokenSession(
            storage: storage,
            refresher: ClosureTokenRefresher { _ in
                try await clock.sleep(for: .seconds(1))
                return TokenPair(accessToken: "new")
            },
            onSessionExpired: { _ in }, leeway: 60, limit: .init(count: 5, window: 60), now: { Date() })
        let request = RequestData.get("/me")
        let generation = session.generation(of: request)

        #expect(session.validTokens(in: generation) == nil)
        #expect(try await session.currentTokens(for: request, in: generation)?.accessToken == "old")
        #expect(session.validTokens(in: generation)??.accessToken == "old")

        let renewal = Task { try await session.renew(rejecting: "old", in: generation, for: request) }
        await clock.waitForSleepers()
        #expect(session.validTokens(in: generation) == nil)

        clock.advance(by: .seconds(1))
        #expect(try await renewal.value.accessToken == "new")
        #expect(session.validTokens(in: generation) == nil)
        #expect(try await session.currentTokens(for: request, in: generation)?.accessToken == "new")
        #expect(session.validTokens(in: generation)??.accessToken == "new")
    }

    @Test func aStorageThatDoesNotCountItsChangesIsReadForEveryRequest() async throws {
        /// A storage of the app's own, which the policy cannot watch.
        final class AppStorage: TokenStorage {
            let reads = Counter()
            func read() async throws -> TokenPair? {
                reads.increment()
                return TokenPair(accessToken: "app")
            }
            func write(_ tokens: TokenPair) async throws {}
            func clear() async throws {}
        }
        let server = Self.echoServer()
        let storage = AppStorage()
        let dispatcher = server.authenticating(storage: storage) { _ in TokenPair(accessToken: "unused") }

        _ = try await Request<String>(.get("/me")).execute(dispatcher: dispatcher)
        _ = try await Request<String>(.get("/me")).execute(dispatcher: dispatcher)

        #expect(storage.reads.count == 2)
        #expect(Self.authorization(of: server) == ["Bearer app", "Bearer app"])
    }
}
