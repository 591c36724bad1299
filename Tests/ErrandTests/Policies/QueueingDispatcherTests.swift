import Errand
import ErrandTestSupport
import Foundation
import Testing

@Suite struct QueueingDispatcherTests {
    @Test func neverHasMoreThanTheLimitInFlightAndServesEveryRequestOnceInOrder() async throws {
        // Given a queue of 8 in front of a server that holds every request open
        let server = HoldingDispatcher()
        let queue = server.limitingConcurrency(to: 8)
        let probes = (0..<500).map { _ in CallbackProbe<NetworkResponse>() }

        // When 500 requests arrive at once and the server answers one at a time
        for (index, probe) in probes.enumerated() {
            queue.dispatch(
                request: .get("/items/\(index)"), onSuccess: probe.onSuccess, onError: probe.onError)
        }
        #expect(server.openCount == 8)
        #expect(queue.waitingCount == 492)
        while server.answerOldest() {
            #expect(server.openCount <= 8)
        }

        // Then no more than 8 were ever open, all were sent in arrival order, each answered once
        #expect(server.mostOpen == 8)
        #expect(server.started.map(\.path) == (0..<500).map { "/items/\($0)" })
        #expect(probes.allSatisfy { $0.deliveries.count == 1 })
        #expect(queue.inFlightCount == 0)
        #expect(queue.waitingCount == 0)
    }

    @Test func aRequestThatBypassesTheQueuePassesAFullOne() async throws {
        // Given a queue of 1 whose slot is taken and which has a request waiting
        let server = HoldingDispatcher()
        let queue = server.limitingConcurrency(to: 1)
        queue.dispatch(request: .get("/a"), onSuccess: { _ in }, onError: { _ in })
        queue.dispatch(request: .get("/b"), onSuccess: { _ in }, onError: { _ in })

        // When a token refresh that bypasses the queue is sent
        queue.dispatch(request: .post("/token").bypassingQueue(), onSuccess: { _ in }, onError: { _ in })

        // Then it reaches the server at once, without taking a slot
        #expect(server.started.map(\.path) == ["/a", "/token"])
        #expect(queue.waitingCount == 1)
        #expect(queue.inFlightCount == 1)
    }

    @Test func cancellingAWaitingRequestEndsItOnceAndTheQueueMovesOn() async throws {
        // Given a queue of 1 with /a in flight and /b, /c waiting
        let server = HoldingDispatcher()
        let queue = server.limitingConcurrency(to: 1)
        let a = CallbackProbe<NetworkResponse>()
        let b = CallbackProbe<NetworkResponse>()
        let c = CallbackProbe<NetworkResponse>()
        queue.dispatch(request: .get("/a"), onSuccess: a.onSuccess, onError: a.onError)
        let waiting = queue.dispatch(request: .get("/b"), onSuccess: b.onSuccess, onError: b.onError)
        queue.dispatch(request: .get("/c"), onSuccess: c.onSuccess, onError: c.onError)

        // When /b is cancelled (twice) while it waits
        waiting.cancel()
        waiting.cancel()

        // Then it fails with cancelled at once, exactly once, and leaves the line
        #expect(b.deliveries.count == 1)
        #expect(try await b.failure().code == .cancelled)
        #expect(queue.waitingCount == 1)
        // And when /a finishes, /c goes next and /b is never sent
        server.answerOldest()
        #expect(server.started.map(\.path) == ["/a", "/c"])
        server.answerOldest()
        #expect(a.deliveries.count == 1)
        #expect(c.deliveries.count == 1)
        #expect(b.deliveries.count == 1)
        #expect(queue.inFlightCount == 0)
    }

    @Test func cancellingAStartedRequestReachesTheServer() async throws {
        // Given a request that got a slot
        let server = HoldingDispatcher()
        let queue = server.limitingConcurrency(to: 1)
        let probe = CallbackProbe<NetworkResponse>()
        let call = queue.dispatch(request: .get("/a"), onSuccess: probe.onSuccess, onError: probe.onError)

        // When it is cancelled
        call.cancel()

        // Then the server's request is cancelled, the slot freed, and one callback delivered
        #expect(try await probe.failure().code == .cancelled)
        #expect(server.openCount == 0)
        #expect(queue.inFlightCount == 0)
        #expect(probe.deliveries.count == 1)
    }

    @Test func aRequestThatFindsAFreeSlotIsHandedTheWrappedDispatchersOwnHandle() async throws {
        // Given a queue with room, in front of a dispatcher whose handles the test knows
        let inner = HandingDispatcher()
        let queue = inner.limitingConcurrency(to: 1)

        // When a request is sent and finds the slot free, then another finds it taken
        let first = queue.dispatch(request: .get("/a"), onSuccess: { _ in }, onError: { _ in })
        let second = queue.dispatch(request: .get("/b"), onSuccess: { _ in }, onError: { _ in })

        // Then the first went out at once with the inner handle, nothing wrapped around it, and
        // the second waits behind a handle of the queue's
        let firstIsInner = (first as AnyObject) === inner.handle
        let secondIsInner = (second as AnyObject) === inner.handle
        #expect(firstIsInner)
        #expect(!secondIsInner)
        #expect(queue.inFlightCount == 1 && queue.waitingCount == 1)
    }

    @Test func aDeadlineThatPassesWhileWaitingFailsTheRequestWithTimedOut() async throws {
        // Given a queue of 1, its slot taken, and two requests waiting with 5 s and 20 s deadlines
        let clock = ManualClock()
        let server = HoldingDispatcher()
        let queue = server.limitingConcurrency(to: 1, clock: clock)
        let short = CallbackProbe<NetworkResponse>()
        let long = CallbackProbe<NetworkResponse>()
        queue.dispatch(request: .get("/a"), onSuccess: { _ in }, onError: { _ in })
        queue.dispatch(request: .get("/short").timeout(5), onSuccess: short.onSuccess, onError: short.onError)
        queue.dispatch(request: .get("/long").timeout(20), onSuccess: long.onSuccess, onError: long.onError)

        // When 5 s pass
        await clock.waitForSleepers()
        clock.advance(by: .seconds(5))

        // Then the short one fails with timedOut and leaves the line; the long one still waits
        let error = try await short.failure()
        #expect(error.code == .timedOut)
        #expect(error.message.contains("request queue"))
        #expect(short.deliveries.count == 1)
        #expect(queue.waitingCount == 1)
        #expect(long.deliveries.isEmpty)
        // And when the slot frees, the long one is sent with what is left of its 20 s
        server.answerOldest()
        #expect(server.started.map(\.path) == ["/a", "/long"])
        #expect(server.started.last?.timeout == 15)
        await clock.waitForSleepers(0)
        clock.advance(by: .seconds(60))
        #expect(long.deliveries.isEmpty)
        #expect(short.deliveries.count == 1)
    }

    @Test func requestsWithoutATimeoutWaitForeverByDefaultOrTheQueuesDefault() async throws {
        // Given a queue with a default deadline of 2 s, its slot taken
        let clock = ManualClock()
        let server = HoldingDispatcher()
        let queue = server.limitingConcurrency(to: 1, defaultTimeout: 2, clock: clock)
        let probe = CallbackProbe<NetworkResponse>()
        let patient = CallbackProbe<NetworkResponse>()
        queue.dispatch(request: .get("/a"), onSuccess: { _ in }, onError: { _ in })
        queue.dispatch(request: .get("/b"), onSuccess: probe.onSuccess, onError: probe.onError)
        queue.dispatch(
            request: .get("/c").timeout(.infinity), onSuccess: patient.onSuccess, onError: patient.onError)

        // When 2 s pass
        await clock.waitForSleepers()
        clock.advance(by: .seconds(2))

        // Then the request without a timeout fails; the one with no deadline waits on
        #expect(try await probe.failure().code == .timedOut)
        clock.advance(by: .seconds(3_600))
        #expect(patient.deliveries.isEmpty)
        #expect(queue.waitingCount == 1)
    }

    @Test func aLimitBelowOneIsRaisedToOne() async throws {
        // Given a queue asked for 0 slots
        let server = HoldingDispatcher()
        let queue = server.limitingConcurrency(to: 0)
        let probe = CallbackProbe<NetworkResponse>()

        // When two requests are sent
        queue.dispatch(request: .get("/a"), onSuccess: probe.onSuccess, onError: probe.onError)
        queue.dispatch(request: .get("/b"), onSuccess: { _ in }, onError: { _ in })

        // Then one goes through at a time instead of none
        #expect(queue.maximumConcurrentRequests == 1)
        #expect(server.started.map(\.path) == ["/a"])
        server.answerOldest()
        #expect(server.started.map(\.path) == ["/a", "/b"])
        #expect(probe.deliveries.count == 1)
    }

    @Test func concurrentSendsCancelsAndAnswersKeepTheLimitAndExactlyOnce() async throws {
        // Given a queue of 4 in front of a holding server
        let server = HoldingDispatcher()
        let queue = server.limitingConcurrency(to: 4)
        let probes = (0..<200).map { _ in CallbackProbe<NetworkResponse>() }

        // When 200 requests are sent from many tasks, every other one cancelled at once, while
        // another task answers whatever is open
        await withTaskGroup(of: Void.self) { group in
            for (index, probe) in probes.enumerated() {
                group.addTask {
                    let call = queue.dispatch(
                        request: .get("/\(index)"), onSuccess: probe.onSuccess, onError: probe.onError)
                    if index.isMultiple(of: 2) { call.cancel() }
                }
            }
            group.addTask {
                for _ in 0..<2_000_000 {
                    guard probes.contains(where: { $0.deliveries.isEmpty }) else { return }
                    if !server.answerOldest() { await Task.yield() }
                }
            }
        }

        // Then the limit held, every request got exactly one callback, and the uncancelled ones
        // were all answered
        #expect(server.mostOpen <= 4)
        #expect(probes.allSatisfy { $0.deliveries.count == 1 })
        for (index, probe) in probes.enumerated() where !index.isMultiple(of: 2) {
            #expect(try await probe.first().get().statusCode == 200)
        }
        #expect(queue.inFlightCount == 0)
        #expect(queue.waitingCount == 0)
    }
}

/// A dispatcher that never answers and hands back the same known handle for every request.
private struct HandingDispatcher: NetworkDispatcher {
    final class KnownHandle: Cancellable {
        func cancel() {}
    }

    let handle = KnownHandle()

    func dispatch(
        request: RequestData, onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable { handle }
}
