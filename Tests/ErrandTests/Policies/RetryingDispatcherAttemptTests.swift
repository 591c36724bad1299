import Errand
import ErrandTestSupport
import Foundation
import Testing

/// The first attempt and the attempts after it go through one path: what happens to an attempt
/// does not depend on which attempt it is.
@Suite struct RetryingDispatcherAttemptTests {
    /// What a cancelled attempt left behind.
    private struct Seen: Equatable {
        let code: NetworkError.Code?
        let deliveries: Int
        let attemptsSent: Int
        let cancelledAtServer: Int
    }

    @Test func cancellingTheFirstAttemptOrALaterOneEndsThemAlike() async throws {
        // Given a retry policy in front of a server that holds each attempt open
        // When the first attempt is cancelled in flight, and in a second call the second one
        let first = try await cancel(attempt: 1)
        let second = try await cancel(attempt: 2)

        // Then each ends once with `cancelled`, reaches the server's request, and sends no more
        #expect(first == Seen(code: .cancelled, deliveries: 1, attemptsSent: 1, cancelledAtServer: 1))
        #expect(second == Seen(code: .cancelled, deliveries: 1, attemptsSent: 2, cancelledAtServer: 1))
    }

    /// Sends one call through a retry policy, lets attempts before `attempt` fail with 503, and
    /// cancels `attempt` while the server holds it.
    private func cancel(attempt: Int) async throws -> Seen {
        let clock = ManualClock()
        let server = HoldingDispatcher()
        let probe = CallbackProbe<NetworkResponse>()
        let retrying = server.retrying(RetryingDispatcherTests.exactPolicy(attempts: 3), clock: clock)
        let call = retrying.dispatch(request: .get("/x"), onSuccess: probe.onSuccess, onError: probe.onError)
        for failed in 1..<attempt {
            await waitUntil("attempt \(failed) to be sent") { server.openCount == 1 }
            server.answerOldest(status: 503)
            await clock.waitForSleepers()
            clock.advance(by: .seconds(60))
        }
        await waitUntil("attempt \(attempt) to be sent") { server.openCount == 1 }
        call.cancel()
        let error = try await probe.failure()
        await waitUntil("the held attempt to be cancelled") { server.cancelledCount == 1 }
        clock.advance(by: .seconds(60))
        for _ in 0..<20 { await Task.yield() }
        return Seen(
            code: error.code, deliveries: probe.deliveries.count, attemptsSent: server.started.count,
            cancelledAtServer: server.cancelledCount)
    }
}
