import Errand
import ErrandPolicies
import ErrandTestSupport
import Foundation
import Testing

/// Policies wrapped around each other, as an app composes them: they run inline in one task.
@Suite struct ComposedStackTests {
    @Test func interceptorsAuthAndRetryWorkTogether() async throws {
        let clock = RecordingClock()
        let server = InMemoryDispatcher()
        server.stub(.get, "/me", responses: [.status(503), .status(401)])
        server.stub(
            InMemoryDispatcher.Stub(
                .get, "/me", where: { $0.headers["Authorization"] == "Bearer new" }, responses: [.text("ok")])
        )
        let refreshes = AuthenticatingDispatcherTests.Counter()
        let stack =
            server
            .intercepted(by: [UserAgentInterceptor("Shop/1")])
            .authenticating(storage: InMemoryTokenStorage(TokenPair(accessToken: "old"))) { _ in
                refreshes.increment()
                return TokenPair(accessToken: "new")
            }
            .retrying(RetryingDispatcherTests.exactPolicy(), clock: clock)
        let probe = CallbackProbe<String>()
        Request<String>(.get("/me"))
            .execute(
                dispatcher: stack, callbackQueue: nil, onSuccess: probe.onSuccess, onError: probe.onError)

        #expect(try await probe.first().get() == "ok")
        #expect(probe.deliveries.count == 1)
        #expect(refreshes.count == 1)
        #expect(clock.sleeps == [.seconds(1)])
        let sent = server.receivedRequests
        #expect(sent.map { $0.headers["Authorization"] } == ["Bearer old", "Bearer old", "Bearer new"])
        #expect(sent.allSatisfy { $0.headers["User-Agent"] == "Shop/1" })
    }

    @Test func cancellingTheOuterCallStopsABackoffDeepInside() async throws {
        let clock = ManualClock()
        let server = InMemoryDispatcher()
        server.stub(.get, "/x", responses: [.status(503), .status(200)])
        let stack = server.retrying(RetryingDispatcherTests.exactPolicy(), clock: clock)
            .intercepted(by: [UserAgentInterceptor("Shop/1")])
        let probe = CallbackProbe<EmptyResponse>()
        let call = Request<EmptyResponse>(.get("/x"))
            .execute(
                dispatcher: stack, callbackQueue: nil, onSuccess: probe.onSuccess, onError: probe.onError)
        await clock.waitForSleepers()
        call.cancel()
        let error = try await probe.failure()
        #expect(error.code == .cancelled)
        await waitUntil("the backoff to be abandoned") { clock.sleeperCount == 0 }
        clock.advance(by: .seconds(10))
        #expect(server.receivedRequests.count == 1)
        #expect(probe.deliveries.count == 1)
    }
}
