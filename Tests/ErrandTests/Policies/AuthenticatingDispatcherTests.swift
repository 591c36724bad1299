import Errand
import ErrandPolicies
import ErrandSync
import ErrandTestSupport
import Foundation
import Testing

@Suite struct AuthenticatingDispatcherTests {
    /// Counts calls, for refreshes and expiry notices.
    final class Counter: Sendable {
        private let value = Locked(0)
        var count: Int { value.withLock { $0 } }
        @discardableResult func increment() -> Int {
            value.withLock {
                $0 += 1
                return $0
            }
        }
    }

    /// A server that accepts only `Bearer <valid>` on `path` and answers 401 to anything else.
    static func server(
        accepting valid: String, paths: [String] = ["/me"], latency: Duration = .zero,
        clock: ManualClock = ManualClock()
    ) -> InMemoryDispatcher {
        let server = InMemoryDispatcher(latency: latency, clock: clock)
        for path in paths {
            server.stub(.get, path, response: .status(401, headers: ["WWW-Authenticate": "Bearer"]))
            server.stub(
                InMemoryDispatcher.Stub(
                    .get, path, where: { $0.headers["Authorization"] == "Bearer \(valid)" },
                    responses: [.text("hello \(valid)")]))
        }
        return server
    }

    @Test func aHundredConcurrent401sCauseOneRefreshAndAllSucceed() async throws {
        let clock = ManualClock()
        let refreshes = Counter()
        let server = Self.server(accepting: "new", latency: .seconds(1), clock: clock)
        let storage = InMemoryTokenStorage(TokenPair(accessToken: "old", refreshToken: "r"))
        let dispatcher = server.authenticating(storage: storage) { tokens in
            refreshes.increment()
            return TokenPair(accessToken: "new", refreshToken: "r2")
        }
        let probes = (0..<100).map { _ in CallbackProbe<String>() }
        for probe in probes {
            Request<String>(.get("/me"))
                .execute(
                    dispatcher: dispatcher, callbackQueue: nil, onSuccess: probe.onSuccess,
                    onError: probe.onError)
        }
        // All 100 are in flight with the old token before any 401 comes back.
        await clock.waitForSleepers(100)
        #expect(server.receivedRequests.allSatisfy { $0.headers["Authorization"] == "Bearer old" })
        clock.advance(by: .seconds(1))
        await waitUntil("100 retries") { server.receivedRequests.count == 200 }
        await clock.waitForSleepers(100)
        clock.advance(by: .seconds(1))
        for probe in probes { #expect(try await probe.first().get() == "hello new") }
        #expect(refreshes.count == 1)
        #expect(probes.allSatisfy { $0.deliveries.count == 1 })
        #expect(
            server.receivedRequests.suffix(100).allSatisfy { $0.headers["Authorization"] == "Bearer new" })
        #expect(try await storage.read()?.accessToken == "new")
    }

    @Test func aFailedRefreshExpiresTheSessionOnceForEveryWaitingRequest() async throws {
        struct InvalidGrant: Error {}
        let clock = ManualClock()
        let expiries = Counter()
        let server = Self.server(accepting: "new", latency: .seconds(1), clock: clock)
        let storage = InMemoryTokenStorage(TokenPair(accessToken: "old", refreshToken: "r"))
        let dispatcher = server.authenticating(
            storage: storage, refresh: { _ in throw InvalidGrant() },
            onSessionExpired: { _ in expiries.increment() })
        let probes = (0..<100).map { _ in CallbackProbe<String>() }
        for probe in probes {
            Request<String>(.get("/me"))
                .execute(
                    dispatcher: dispatcher, callbackQueue: nil, onSuccess: probe.onSuccess,
                    onError: probe.onError)
        }
        await clock.waitForSleepers(100)
        clock.advance(by: .seconds(1))
        var causes = 0
        for probe in probes {
            let error = try await probe.failure()
            #expect(error.code == .sessionExpired)
            if error.underlyingError is InvalidGrant { causes += 1 }
        }
        // Those that joined the refresh see its cause; any that asked after it had ended find
        // the storage already cleared. Either way: sessionExpired, and one notice.
        #expect(causes >= 1)
        #expect(expiries.count == 1)
        #expect(probes.allSatisfy { $0.deliveries.count == 1 })
        #expect(try await storage.read() == nil)
        #expect(server.receivedRequests.count == 100)
    }

    @Test func aRequestRefusedWithAnOlderTokenRetriesWithTheCurrentOneWithoutRefreshing() async throws {
        let clock = ManualClock()
        let refreshes = Counter()
        let server = InMemoryDispatcher(clock: clock)
        for (path, delay) in [("/slow", Duration.seconds(5)), ("/fast", Duration.zero)] {
            server.stub(.get, path, response: InMemoryDispatcher.Response.status(401).delayed(by: delay))
            server.stub(
                InMemoryDispatcher.Stub(
                    .get, path, where: { $0.headers["Authorization"] == "Bearer new" },
                    responses: [.text(path)]))
        }
        let dispatcher = server.authenticating(storage: InMemoryTokenStorage(TokenPair(accessToken: "old"))) {
            _ in
            refreshes.increment()
            return TokenPair(accessToken: "new")
        }
        let slow = CallbackProbe<String>()
        Request<String>(.get("/slow"))
            .execute(
                dispatcher: dispatcher, callbackQueue: nil, onSuccess: slow.onSuccess, onError: slow.onError)
        await clock.waitForSleepers()
        #expect(try await Request<String>(.get("/fast")).execute(dispatcher: dispatcher) == "/fast")
        #expect(refreshes.count == 1)
        clock.advance(by: .seconds(5))
        #expect(try await slow.first().get() == "/slow")
        #expect(refreshes.count == 1)
        let slowAttempts = server.receivedRequests.filter { $0.path == "/slow" }.map {
            $0.headers["Authorization"]
        }
        #expect(slowAttempts == ["Bearer old", "Bearer new"])
    }

    @Test func refreshesAheadOfExpiryWithinTheLeeway() async throws {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let refreshes = Counter()
        let server = Self.server(accepting: "fresh")
        let storage = InMemoryTokenStorage(
            TokenPair(accessToken: "stale", expiresAt: now.addingTimeInterval(30)))
        let dispatcher = server.authenticating(
            storage: storage,
            refresh: { _ in
                refreshes.increment()
                return TokenPair(accessToken: "fresh", expiresAt: now.addingTimeInterval(3600))
            }, leeway: 60, now: { now })
        #expect(try await Request<String>(.get("/me")).execute(dispatcher: dispatcher) == "hello fresh")
        #expect(try await Request<String>(.get("/me")).execute(dispatcher: dispatcher) == "hello fresh")
        #expect(refreshes.count == 1)
        #expect(
            server.receivedRequests.map { $0.headers["Authorization"] } == ["Bearer fresh", "Bearer fresh"])
    }

    @Test func attachesTokensOnlyWhereTheRequestWantsThem() async throws {
        let server = InMemoryDispatcher()
        server.stub(.get, "/*", response: .status(200))
        let signedIn = server.authenticating(storage: InMemoryTokenStorage(TokenPair(accessToken: "t"))) {
            $0
        }
        _ = try await signedIn.dispatch(.get("/login").authentication(.none))
        _ = try await signedIn.dispatch(.get("/own").header("Authorization", "Basic eDp5"))
        _ = try await signedIn.dispatch(.get("/default"))
        #expect(
            server.receivedRequests.map { $0.headers["Authorization"] } == [nil, "Basic eDp5", "Bearer t"])

        let signedOut = server.authenticating(storage: InMemoryTokenStorage()) { $0 }
        _ = try await signedOut.dispatch(.get("/optional"))
        #expect(server.receivedRequests.last?.headers["Authorization"] == nil)
        do {
            _ = try await signedOut.dispatch(.get("/required").authentication(.required))
            Issue.record("expected sessionExpired")
        } catch let error as NetworkError {
            #expect(error.code == .sessionExpired)
        } catch { Issue.record(error) }
        #expect(server.receivedRequests.last?.path == "/optional")
    }

    @Test func eachRequestIsRetriedOnceAndRefreshLoopsAreCapped() async throws {
        let refreshes = Counter()
        let expiries = Counter()
        let server = InMemoryDispatcher()
        server.stub(.get, "/me", response: .status(401))
        let dispatcher = server.authenticating(
            storage: InMemoryTokenStorage(TokenPair(accessToken: "t0")),
            refresh: { _ in TokenPair(accessToken: "t\(refreshes.increment())") },
            onSessionExpired: { _ in expiries.increment() }, maximumRefreshes: 3, within: 60)
        for _ in 0..<3 {
            #expect(try await dispatcher.dispatch(.get("/me")).statusCode == 401)
        }
        #expect(server.receivedRequests.count == 6)
        do {
            _ = try await dispatcher.dispatch(.get("/me"))
            Issue.record("expected sessionExpired")
        } catch let error as NetworkError {
            #expect(error.code == .sessionExpired)
            #expect(error.message.contains("3 token refreshes"))
        } catch { Issue.record(error) }
        #expect(refreshes.count == 3)
        #expect(expiries.count == 1)
    }

    @Test func aTemporaryRefreshFailureKeepsTheSession() async throws {
        let expiries = Counter()
        let server = Self.server(accepting: "new")
        let storage = InMemoryTokenStorage(TokenPair(accessToken: "old"))
        let dispatcher = server.authenticating(
            storage: storage, refresh: { _ in throw NetworkError(code: .transport, message: "offline") },
            onSessionExpired: { _ in expiries.increment() })
        do {
            _ = try await dispatcher.dispatch(.get("/me"))
            Issue.record("expected a transport error")
        } catch let error as NetworkError {
            #expect(error.code == .transport)
        } catch { Issue.record(error) }
        #expect(expiries.count == 0)
        #expect(try await storage.read()?.accessToken == "old")
    }
}
