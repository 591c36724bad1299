import Errand
import ErrandPolicies
import ErrandTestSupport
import Foundation
import Testing

/// The queue wrapped inside another policy, where it waits inline in that policy's task.
@Suite struct QueueingDispatcherInlineTests {
    @Test func insideAnotherPolicyItKeepsTheLimitAndTheOrder() async throws {
        // Given a queue of 2 inside an interceptor policy, in front of a holding server
        let server = HoldingDispatcher()
        let queue = server.limitingConcurrency(to: 2)
        let stack = queue.intercepted(by: [UserAgentInterceptor("Shop/1")])
        let probes = (0..<20).map { _ in CallbackProbe<NetworkResponse>() }

        // When 20 requests are sent one after another and answered as they arrive
        for (index, probe) in probes.enumerated() {
            stack.dispatch(
                request: .get("/items/\(index)"), onSuccess: probe.onSuccess, onError: probe.onError)
            await waitUntil("request \(index) to reach the queue") {
                server.started.count + queue.waitingCount == index + 1
            }
        }
        var answered = 0
        while answered < 20 {
            // Both slots filled before each answer, so each answer admits exactly one waiting task.
            await waitUntil("the slots to fill") { server.openCount == min(2, 20 - answered) }
            #expect(server.openCount <= 2)
            server.answerOldest()
            answered += 1
        }

        // Then never more than 2 were open, they went in order, each answered once
        for probe in probes { _ = await probe.first() }
        #expect(server.mostOpen == 2)
        #expect(server.started.map(\.path) == (0..<20).map { "/items/\($0)" })
        #expect(probes.allSatisfy { $0.deliveries.count == 1 })
    }

    @Test func cancellingAWaitingTaskTakesItOutOfLine() async throws {
        // Given a queue of 1 inside an interceptor policy, its slot taken
        let server = HoldingDispatcher()
        let stack = server.limitingConcurrency(to: 1).intercepted(by: [])
        stack.dispatch(request: .get("/a"), onSuccess: { _ in }, onError: { _ in })
        await waitUntil("the first request to start") { server.openCount == 1 }
        let probe = CallbackProbe<NetworkResponse>()
        let waiting = stack.dispatch(request: .get("/b"), onSuccess: probe.onSuccess, onError: probe.onError)
        let after = CallbackProbe<NetworkResponse>()
        stack.dispatch(request: .get("/c"), onSuccess: after.onSuccess, onError: after.onError)

        // When the waiting request is cancelled
        waiting.cancel()

        // Then it ends with cancelled once, and the next one takes the freed slot
        #expect(try await probe.failure().code == .cancelled)
        server.answerOldest()
        await waitUntil("the third request to start") { server.started.count == 2 }
        #expect(server.started.map(\.path) == ["/a", "/c"])
        server.answerOldest()
        #expect(try await after.first().get().statusCode == 200)
        #expect(probe.deliveries.count == 1)
    }
}
