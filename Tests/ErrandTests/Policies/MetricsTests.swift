import Errand
import ErrandPolicies
import ErrandTestSupport
import Foundation
import Testing

@Suite struct MetricsTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func countsAndNearestRankPercentilesOnAKnownSequence() async throws {
        // Given a measured server on a manual clock
        let clock = ManualClock()
        let server = HoldingDispatcher()
        let metrics = InMemoryMetrics()
        let measured = server.measuring(into: metrics, clock: clock, now: { Self.start })

        // When 100 requests take 1 ms, 2 ms, … 100 ms
        for milliseconds in 1...100 {
            measured.dispatch(request: .get("/x"), onSuccess: { _ in }, onError: { _ in })
            clock.advance(by: .milliseconds(milliseconds))
            server.answerOldest()
        }

        // Then the count and the percentiles are exact
        #expect(metrics.count == 100)
        #expect(metrics.p50 == .milliseconds(50))
        #expect(metrics.p95 == .milliseconds(95))
        #expect(metrics.p99 == .milliseconds(99))
        #expect(metrics.latency(atPercentile: 0) == .milliseconds(1))
        #expect(metrics.latency(atPercentile: 100) == .milliseconds(100))
        #expect(metrics.errorRate == 0)
    }

    @Test func percentilesCoverTheMostRecentWindowOnly() async throws {
        // Given an aggregate that keeps the 10 most recent latencies
        let metrics = InMemoryMetrics(windowSize: 10)

        // When 1 000 requests of 1 … 1 000 ms are recorded
        for milliseconds in 1...1_000 {
            metrics.record(
                RequestMetric(
                    method: .get, path: "/x", start: Self.start, duration: .milliseconds(milliseconds)))
        }

        // Then the totals count all of them, the percentiles the last 10
        #expect(metrics.count == 1_000)
        #expect(metrics.p50 == .milliseconds(995))
        #expect(metrics.latency(atPercentile: 0) == .milliseconds(991))
        #expect(InMemoryMetrics().p50 == nil)
    }

    @Test func errorRateCountsFailuresAnd5xxButNot4xxOrCancellations() async throws {
        // Given a server answering 200, 404, 500, a transport failure and a slow request
        let server = InMemoryDispatcher()
        server.stub(.get, "/ok", response: .status(200))
        server.stub(.get, "/missing", response: .status(404))
        server.stub(.get, "/broken", response: .status(500))
        server.stub(.get, "/down", response: .failure(.transport))
        let holding = HoldingDispatcher()
        let metrics = InMemoryMetrics()

        // When each is sent once through the measuring policy, and a held request is cancelled
        for path in ["/ok", "/missing", "/broken", "/down"] {
            _ = try? await server.measuring(into: metrics).dispatch(.get(path))
        }
        holding.measuring(into: metrics).dispatch(
            request: .get("/slow"), onSuccess: { _ in }, onError: { _ in }
        )
        .cancel()

        // Then 2 of 5 count as failures
        #expect(metrics.count == 5)
        #expect(metrics.failureCount == 2)
        #expect(metrics.errorRate == 0.4)
    }

    @Test func recordsWhatTheRequestWasAndHowItEnded() async throws {
        // Given a server that answers a POST with 7 bytes, and a recording sink
        let clock = ManualClock()
        let server = HoldingDispatcher()
        let sink = RecordingSink()
        let measured = server.measuring(into: sink, clock: clock, now: { Self.start })

        // When a request with a 5-byte body, a query and an id in its path is sent and answered
        measured.dispatch(
            request: .post("/users/42/notes").query("token", "secret").body(.text("hello")),
            onSuccess: { _ in }, onError: { _ in })
        clock.advance(by: .milliseconds(30))
        server.answerOldest(status: 201, body: Data("world!!".utf8))

        // Then one metric says so, without the query
        let metric = try #require(sink.metrics.first)
        #expect(sink.metrics.count == 1)
        #expect(metric.method == .post)
        #expect(metric.path == "/users/42/notes")
        #expect(metric.template == "/users/{id}/notes")
        #expect(metric.statusCode == 201)
        #expect(metric.errorCode == nil)
        #expect(metric.start == Self.start)
        #expect(metric.duration == .milliseconds(30))
        #expect(metric.bytesSent == 5)
        #expect(metric.bytesReceived == 7)
        #expect(metric.attempts == 1)
        #expect(metric.servedFromCache == false)
    }

    @Test func aTemplateClosureNamesTheRouteAndNilFallsBackToThePath() async throws {
        // Given a measuring policy that names the routes it knows
        let server = InMemoryDispatcher()
        server.stub(.get, "/*/*", response: .status(200))
        let sink = RecordingSink()
        let measured = server.measuring(
            into: sink, template: { $0.path.hasPrefix("/orders/") ? "/orders/:ref" : nil })

        // When a known and an unknown route are sent
        _ = try await measured.dispatch(.get("/orders/AB-9?x=1"))
        _ = try await measured.dispatch(.get("/files/7?x=1"))

        // Then the known one has its name, the other its path without the query
        #expect(sink.metrics.map(\.template) == ["/orders/:ref", "/files/7"])
        #expect(
            RequestMetric.numericSegmentsAsID(.get("https://h.example/a/\(UUID())/b/12?q"))
                == "https://h.example/a/{id}/b/{id}")
    }

    @Test(arguments: [
        ("/user.json", "/user.json"), ("/users/12/posts", "/users/{id}/posts"), ("/users/12", "/users/{id}"),
        ("/v2/items#top", "/v2/items"), ("/a//b/", "/a//b/"), ("/é/7?q=1", "/é/{id}"),
        ("/x/\(String(repeating: "z", count: 36))", "/x/\(String(repeating: "z", count: 36))"),
        ("/x/00000000-0000-0000-0000-000000000000/y", "/x/{id}/y"),
    ])
    func templatesNameIdentifierSegmentsAndLeaveOtherPathsAsTheyAre(path: String, template: String) {
        #expect(RequestMetric.numericSegmentsAsID(.get(path)) == template)
    }

    @Test func readsTheCacheHeaderAndTheAttemptsOfARetryBeneath() async throws {
        // Given a cached answer, and a retry policy that gives up after 3 attempts
        let server = InMemoryDispatcher()
        server.stub(.get, "/cached", response: .status(200, headers: ["Cache-Control": "max-age=60"]))
        server.stub(.get, "/busy", response: .failure(.timedOut))
        let sink = RecordingSink()
        let retry = RetryingDispatcherTests.exactPolicy()

        // When each is sent, measured outside the retry policy, then /busy measured inside it
        let cached = server.caching(MemoryCacheStore(byteLimit: 1_000_000)).measuring(into: sink)
        _ = try await cached.dispatch(.get("/cached"))
        _ = try await cached.dispatch(.get("/cached"))
        _ = try? await server.retrying(retry, clock: RecordingClock()).measuring(into: sink).dispatch(
            .get("/busy"))
        let inside = RecordingSink()
        _ = try? await server.measuring(into: inside).retrying(retry, clock: RecordingClock()).dispatch(
            .get("/busy"))

        // Then the second, answered by the cache, is flagged; outside, one metric with 3 attempts; inside, 3 metrics
        #expect(sink.metrics.map(\.servedFromCache) == [false, true, false])
        #expect(sink.metrics.last?.attempts == 3)
        #expect(sink.metrics.last?.errorCode == .timedOut)
        #expect(inside.metrics.count == 3)
        #expect(inside.metrics.allSatisfy { $0.attempts == 1 })
    }

    @Test func aSuccessAfterRetriesCarriesItsAttemptsToTheResponseAndTheMetric() async throws {
        // Given a server that is busy once, then answers, and one that answers at once
        let server = InMemoryDispatcher()
        server.stub(.get, "/flaky", responses: [.status(503), .text("ok")])
        server.stub(.get, "/steady", response: .text("ok"))
        let sink = RecordingSink()
        let measured = server.retrying(RetryingDispatcherTests.exactPolicy(), clock: RecordingClock())
            .measuring(into: sink)

        // When both are sent, measured outside the retry policy
        let flaky = try await measured.dispatch(.get("/flaky"))
        let steady = try await measured.dispatch(.get("/steady"))

        // Then the answer after one retry says 2 attempts, in the response and in its metric
        #expect(flaky.statusCode == 200 && flaky.attempts == 2)
        #expect(steady.attempts == 1)
        #expect(sink.metrics.map(\.attempts) == [2, 1])
        #expect(sink.metrics.map(\.statusCode) == [200, 200])
    }

    @Test func recordsExactlyOnceForEveryOutcomeAndInline() async throws {
        // Given a measuring policy outermost and one inside another policy
        let server = HoldingDispatcher()
        let sink = RecordingSink()
        let outer = server.measuring(into: sink)
        let inner = server.measuring(into: sink).intercepted(by: [])
        let probes = (0..<4).map { _ in CallbackProbe<NetworkResponse>() }

        // When one of each is answered and one of each is cancelled
        outer.dispatch(request: .get("/1"), onSuccess: probes[0].onSuccess, onError: probes[0].onError)
        server.answerOldest()
        outer.dispatch(request: .get("/2"), onSuccess: probes[1].onSuccess, onError: probes[1].onError)
            .cancel()
        inner.dispatch(request: .get("/3"), onSuccess: probes[2].onSuccess, onError: probes[2].onError)
        await waitUntil("the inline request to start") { server.openCount == 1 }
        server.answerOldest()
        _ = await probes[2].first()
        let cancelled = inner.dispatch(
            request: .get("/4"), onSuccess: probes[3].onSuccess, onError: probes[3].onError)
        await waitUntil("the inline request to start") { server.openCount == 1 }
        cancelled.cancel()
        _ = await probes[3].first()
        await waitUntil("the cancelled inline request to be measured") { sink.metrics.count == 4 }

        // Then each request has exactly one metric and one callback
        #expect(sink.metrics.map(\.path).sorted() == ["/1", "/2", "/3", "/4"])
        #expect(sink.metrics.filter { $0.errorCode == .cancelled }.map(\.path).sorted() == ["/2", "/4"])
        #expect(probes.allSatisfy { $0.deliveries.count == 1 })
    }
}

/// Totals of hostile sizes saturate instead of stopping the program.
@Suite struct InMemoryMetricsTotalsTests {
    @Test func totalsPastIntMaxStayAtIntMax() {
        // Given two measurements whose sizes add up past Int.max
        let metrics = InMemoryMetrics()
        let huge = RequestMetric(
            method: .get, path: "/x", start: Date(), duration: .zero, bytesSent: .max, bytesReceived: .max)
        // When both are recorded
        metrics.record(huge)
        metrics.record(huge)
        // Then the totals hold at Int.max
        #expect(metrics.bytesSent == .max)
        #expect(metrics.bytesReceived == .max)
        #expect(metrics.count == 2)
    }
}
