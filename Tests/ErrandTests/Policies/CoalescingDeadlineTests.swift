import Errand
import ErrandSync
import ErrandTestSupport
import Foundation
import Testing

@Suite struct CoalescingDeadlineTests {
    @Test func aCallerWithAShorterTimeoutTimesOutOnItsOwnAndTheOthersKeepWaiting() async throws {
        // Given a leader with a 30 s timeout and a caller with 2 s sharing its dispatch
        let clock = ManualClock()
        let server = HoldingDispatcher()
        let dispatcher = server.coalescingIdenticalRequests(clock: clock)
        let leader = CallbackProbe<NetworkResponse>()
        let hasty = CallbackProbe<NetworkResponse>()
        dispatcher.dispatch(
            request: .get("/slow").timeout(30), onSuccess: leader.onSuccess, onError: leader.onError)
        dispatcher.dispatch(
            request: .get("/slow").timeout(2), onSuccess: hasty.onSuccess, onError: hasty.onError)
        #expect(server.started.count == 1)

        // When 2 s pass
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))

        // Then the hasty caller timed out, once, and the shared dispatch goes on for the leader
        #expect(try await hasty.failure().code == .timedOut)
        #expect(server.openCount == 1)
        #expect(server.cancelledCount == 0)
        server.answerOldest()
        #expect(try await leader.first().get().statusCode == 200)
        #expect(hasty.deliveries.count == 1)
    }

    @Test func aCallerWithALongerTimeoutStartsItsOwnDispatch() async throws {
        // Given a read in flight with a 2 s timeout
        let server = HoldingDispatcher()
        let dispatcher = server.coalescingIdenticalRequests(clock: ManualClock())
        dispatcher.dispatch(request: .get("/slow").timeout(2), onSuccess: { _ in }, onError: { _ in })

        // When the same read arrives with 30 s, with no timeout, and again with 30 s
        dispatcher.dispatch(request: .get("/slow").timeout(30), onSuccess: { _ in }, onError: { _ in })
        dispatcher.dispatch(request: .get("/slow"), onSuccess: { _ in }, onError: { _ in })
        dispatcher.dispatch(request: .get("/slow").timeout(30), onSuccess: { _ in }, onError: { _ in })

        // Then the two longer ones were not cut short by the first: each timeout had its own
        // dispatch, and the second 30 s read joined the first one
        #expect(server.started.map(\.timeout) == [2, 30, nil])
    }
}

/// Coalescing against httpbin, through the real transport.
@Suite(.enabled(if: LiveServer.httpbinAvailable, LiveServer.skipReason))
struct CoalescingLiveTests {
    /// Counts what reaches the transport, and holds it there until ``release()``, so every
    /// caller has joined before the shared read can end, however slowly the machine runs.
    final class Gated: NetworkDispatcher {
        let base: any NetworkDispatcher
        private let state = Locked<(count: Int, held: [@Sendable () -> Void]?)>((0, []))
        var dispatched: Int { state.withLock { $0.count } }

        init(_ base: any NetworkDispatcher) { self.base = base }

        func dispatch(
            request: RequestData, onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
            onError: @escaping @Sendable (NetworkError) -> Void
        ) -> any Cancellable {
            let send: @Sendable () -> Void = { [base] in
                _ = base.dispatch(request: request, onSuccess: onSuccess, onError: onError)
            }
            let sendNow = state.withLock { state in
                state.count += 1
                guard state.held != nil else { return true }
                state.held?.append(send)
                return false
            }
            if sendNow { send() }
            return CancellableAction {}
        }

        func release() {
            let held = state.withLock { state in
                defer { state.held = nil }
                return state.held ?? []
            }
            for send in held { send() }
        }
    }

    /// Counts the calls that have returned.
    final class Arrivals: NetworkDispatcher {
        let base: any NetworkDispatcher
        private let count = Locked(0)
        var arrived: Int { count.withLock { $0 } }

        init(_ base: any NetworkDispatcher) { self.base = base }

        func dispatch(
            request: RequestData, onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
            onError: @escaping @Sendable (NetworkError) -> Void
        ) -> any Cancellable {
            defer { count.withLock { $0 += 1 } }
            return base.dispatch(request: request, onSuccess: onSuccess, onError: onError)
        }
    }

    @Test func twentyIdenticalReadsOfHttpbinCostOneRequest() async throws {
        // Given the transport to httpbin, counted, behind a coalescing dispatcher
        let transport = Gated(
            URLSessionDispatcher(baseURL: try LiveServer.require(LiveServer.httpbin, "ERRAND_HTTPBIN_URL")))
        let dispatcher = Arrivals(transport.coalescingIdenticalRequests())

        // When 20 callers ask for the same read at once
        let bodies = try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try await dispatcher.dispatch(.get("/delay/0.2").header("Accept", "application/json"))
                        .body
                }
            }
            await waitUntil("all 20 callers to arrive") { dispatcher.arrived == 20 }
            transport.release()
            return try await group.reduce(into: []) { $0.append($1) }
        }

        // Then httpbin was asked once and every caller read the same answer
        #expect(transport.dispatched == 1)
        #expect(bodies.count == 20)
        #expect(Set(bodies).count == 1)
        #expect(bodies.first.map { !$0.isEmpty } == true)
    }
}
