import Errand
import ErrandPolicies
import ErrandSync
import ErrandTestSupport
import Foundation
import Testing

@Suite struct RetryingDispatcherTests {
    /// A policy with exact delays (no jitter) of 1 s, 2 s, 4 s… that records each retry.
    static func exactPolicy(attempts: Int = 3, onRetry: (@Sendable (RetryEvent) -> Void)? = nil)
        -> RetryPolicy
    {
        RetryPolicy(
            maximumAttempts: attempts,
            backoff: .init(base: .seconds(1), multiplier: 2, maximum: .seconds(30), jitter: .none),
            onRetry: onRetry)
    }

    final class EventLog: Sendable {
        private let storage = Locked<[RetryEvent]>([])
        var events: [RetryEvent] { storage.withLock { $0 } }
        func record(_ event: RetryEvent) { storage.withLock { $0.append(event) } }
    }

    @Test func retries503sWithTheExactBackoffDelays() async throws {
        let clock = ManualClock()
        let log = EventLog()
        let inner = InMemoryDispatcher()
        inner.stub(.get, "/x", responses: [.status(503), .status(503), .text("ok")])
        let dispatcher = inner.retrying(Self.exactPolicy(onRetry: log.record), clock: clock)
        let probe = CallbackProbe<String>()
        Request<String>(.get("/x"))
            .execute(
                dispatcher: dispatcher, callbackQueue: nil, onSuccess: probe.onSuccess, onError: probe.onError
            )

        await clock.waitForSleepers()
        #expect(inner.receivedRequests.count == 1)
        clock.advance(by: .seconds(1))
        await clock.waitForSleepers()
        #expect(inner.receivedRequests.count == 2)
        clock.advance(by: .seconds(2))

        #expect(try await probe.first().get() == "ok")
        #expect(probe.deliveries.count == 1)
        #expect(inner.receivedRequests.count == 3)
        #expect(log.events.map(\.delay) == [.seconds(1), .seconds(2)])
        #expect(log.events.map(\.reason) == [.status(503), .status(503)])
        #expect(clock.now.offset == .seconds(3))
    }

    @Test func givesUpAfterTheMaximumSayingHowManyAttempts() async throws {
        let clock = RecordingClock()
        let inner = InMemoryDispatcher()
        inner.stub(.get, "/x", response: .text("busy", status: 503))
        let probe = CallbackProbe<String>()
        Request<String>(.get("/x"))
            .execute(
                dispatcher: inner.retrying(Self.exactPolicy(attempts: 4), clock: clock), callbackQueue: nil,
                onSuccess: probe.onSuccess, onError: probe.onError)
        let error = try await probe.failure()
        #expect(error.code == .unacceptableStatus)
        #expect(error.attempts == 4)
        #expect(error.message.contains("after 4 attempts"))
        #expect(error.response?.text == "busy")
        #expect(clock.sleeps == [.seconds(1), .seconds(2), .seconds(4)])
        #expect(probe.deliveries.count == 1)
    }

    @Test func honoursRetryAfterInSecondsAndAsAnHTTPDate() async throws {
        let clock = RecordingClock()
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let inner = InMemoryDispatcher()
        inner.stub(
            .get, "/x",
            responses: [
                .status(429, headers: ["Retry-After": "2"]),
                .status(503, headers: ["Retry-After": "Tue, 14 Nov 2023 22:13:25 GMT"]),
                .status(200),
            ])
        let dispatcher = inner.retrying(Self.exactPolicy(), clock: clock, now: { now })
        let response = try await dispatcher.dispatch(.get("/x"))
        #expect(response.statusCode == 200)
        #expect(clock.sleeps == [.seconds(2), .seconds(5)])
    }

    @Test func aRetryAfterBeyondTheCapIsNotWaitedFor() async throws {
        let clock = RecordingClock()
        let inner = InMemoryDispatcher()
        inner.stub(.get, "/x", responses: [.status(503, headers: ["Retry-After": "3600"]), .status(200)])
        let dispatcher = inner.retrying(Self.exactPolicy(), clock: clock)
        let response = try await dispatcher.dispatch(.get("/x"))
        #expect(response.statusCode == 503)
        #expect(clock.sleeps.isEmpty)
    }

    @Test func aPostIsNotRetriedUnlessItOptsIn() async throws {
        let clock = RecordingClock()
        let inner = InMemoryDispatcher()
        inner.stub(.post, "/orders", responses: [.status(503), .status(201)])
        let dispatcher = inner.retrying(Self.exactPolicy(), clock: clock)
        #expect(try await dispatcher.dispatch(.post("/orders")).statusCode == 503)
        #expect(inner.receivedRequests.count == 1)
        #expect(
            try await dispatcher.dispatch(.post("/orders").retryableWhenNotIdempotent()).statusCode == 201)
    }

    @Test func a404IsNeverRetriedEvenWhenListed() async throws {
        var policy = Self.exactPolicy()
        policy.retryableStatusCodes.insert(404)
        let inner = InMemoryDispatcher()
        inner.stub(.get, "/x", responses: [.status(404), .status(200)])
        let response = try await inner.retrying(policy, clock: RecordingClock()).dispatch(.get("/x"))
        #expect(response.statusCode == 404)
        #expect(inner.receivedRequests.count == 1)
    }

    @Test func retriesATimeoutButNotACancellationOrAnUnknownTransportFailure() async throws {
        let inner = InMemoryDispatcher()
        inner.stub(.get, "/timeout", responses: [.failure(.timedOut), .status(200)])
        inner.stub(.get, "/cancelled", responses: [.failure(.cancelled), .status(200)])
        inner.stub(.get, "/tls", responses: [.failure(.transport), .status(200)])
        let dispatcher = inner.retrying(Self.exactPolicy(), clock: RecordingClock())
        #expect(try await dispatcher.dispatch(.get("/timeout")).statusCode == 200)
        await #expect(throws: NetworkError.self) { try await dispatcher.dispatch(.get("/cancelled")) }
        await #expect(throws: NetworkError.self) { try await dispatcher.dispatch(.get("/tls")) }
        #expect(inner.receivedRequests.map(\.path) == ["/timeout", "/timeout", "/cancelled", "/tls"])
    }

    @Test func cancellingDuringABackoffEndsAtOnce() async throws {
        let clock = ManualClock()
        let inner = InMemoryDispatcher()
        inner.stub(.get, "/x", responses: [.status(503), .status(200)])
        let probe = CallbackProbe<EmptyResponse>()
        let call = Request<EmptyResponse>(.get("/x"))
            .execute(
                dispatcher: inner.retrying(Self.exactPolicy(), clock: clock), callbackQueue: nil,
                onSuccess: probe.onSuccess, onError: probe.onError)
        await clock.waitForSleepers()
        call.cancel()
        let error = try await probe.failure()
        #expect(error.code == .cancelled)
        clock.advance(by: .seconds(60))
        #expect(inner.receivedRequests.count == 1)
        #expect(probe.deliveries.count == 1)
    }

    @Test func noneNeverRetries() async throws {
        let inner = InMemoryDispatcher()
        inner.stub(.get, "/x", responses: [.status(503), .status(200)])
        #expect(try await inner.retrying(.none).dispatch(.get("/x")).statusCode == 503)
    }

    @Test(arguments: [
        (RetryPolicy.Jitter.none, 0.25, [1.0, 2.0, 4.0, 8.0, 10.0]),
        (RetryPolicy.Jitter.full, 0.25, [0.25, 0.5, 1.0, 2.0, 2.5]),
        (RetryPolicy.Jitter.equal, 0.5, [0.75, 1.5, 3.0, 6.0, 7.5]),
    ])
    func backoffGrowsToItsMaximumWithJitter(jitter: RetryPolicy.Jitter, random: Double, expected: [Double]) {
        let backoff = RetryPolicy.Backoff(
            base: .seconds(1), multiplier: 2, maximum: .seconds(10), jitter: jitter)
        let delays = (1...5).map { backoff.delay(beforeRetry: $0, random: random) }
        #expect(delays == expected.map { Duration.seconds($0) })
    }
}
