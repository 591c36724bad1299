import Errand
import ErrandTestSupport
import Foundation
import Testing

/// Timeouts and delays too long for a clock: each saturates, and none stops the process.
/// (At 8971c84, each of these stopped the whole test process.)
@Suite struct HostileDelayTests {
    @Test(arguments: [1e300, 1e25, 9e18])
    func aCallerJoiningWithAHugeTimeoutWaitsWithTheOthers(timeout: Double) async throws {
        // Given a read in flight with no deadline, and the same read with a timeout too long
        // for a Duration
        let clock = ManualClock()
        let server = HoldingDispatcher()
        let dispatcher = server.coalescingIdenticalRequests(clock: clock)
        let leader = CallbackProbe<NetworkResponse>()
        let joiner = CallbackProbe<NetworkResponse>()
        dispatcher.dispatch(
            request: .get("/slow").timeout(.infinity), onSuccess: leader.onSuccess, onError: leader.onError)

        // When it joins
        dispatcher.dispatch(
            request: .get("/slow").timeout(timeout), onSuccess: joiner.onSuccess, onError: joiner.onError)
        await clock.waitForSleepers()
        clock.advance(by: .seconds(1_000_000_000))

        // Then it shares the one dispatch, and both get its answer
        #expect(server.started.count == 1)
        server.answerOldest()
        #expect(try await leader.first().get().statusCode == 200)
        #expect(try await joiner.first().get().statusCode == 200)
    }

    @Test func aStubDelayedPastAnyClockWaitsUntilCancelled() async throws {
        // Given a stub delayed by Int64.max seconds, on the continuous clock
        let clock = WatchedClock()
        let server = InMemoryDispatcher(clock: clock)
        server.stub(
            .get, "/x", response: InMemoryDispatcher.Response.status(200).delayed(by: .seconds(Int64.max)))
        let probe = CallbackProbe<NetworkResponse>()
        let call = server.dispatch(request: .get("/x"), onSuccess: probe.onSuccess, onError: probe.onError)

        // When the wait has begun, and is cancelled
        await clock.waitForSleeps()
        call.cancel()

        // Then the request ends as cancelled
        #expect(try await probe.failure().code == .cancelled)
    }
}
