import Errand
import ErrandState
import ErrandTestSupport
import Testing

@MainActor @Suite struct NetworkViewModelTests {
    let clock = ManualClock()
    let dispatcher: InMemoryDispatcher

    init() {
        dispatcher = InMemoryDispatcher(clock: clock)
    }

    func model() -> NetworkViewModel<[Item]> {
        NetworkViewModel(Request<[Item]>(.get("/items")), dispatcher: dispatcher)
    }

    @Test func loadGoesFromIdleThroughLoadingToLoaded() async {
        // Given a stub that answers after a second
        dispatcher.stub(.get, "/items", response: .json([Item].ids(1, 2)).delayed(by: .seconds(1)))
        let model = model()
        #expect(model.state == .idle)

        // When it loads
        let task = model.load()

        // Then it is loading without a value, and loaded once the answer comes
        #expect(model.state == .loading(previous: nil))
        #expect(model.isLoading)
        await clock.waitForSleepers()
        clock.advance(by: .seconds(1))
        await task.value
        #expect(model.state == .loaded(.ids(1, 2)))
        #expect(model.value == .ids(1, 2))
    }

    @Test func aFailedLoadReportsTheNetworkError() async {
        // Given a server that answers 500
        dispatcher.stub(.get, "/items", response: .status(500))
        let model = model()

        // When it loads
        await model.load().value

        // Then the state is failed, with the status, and no value
        #expect(model.state.error?.code == .unacceptableStatus)
        #expect(model.state.error?.statusCode == 500)
        #expect(model.value == nil)
    }

    @Test func reloadKeepsThePreviousValueWhileLoading() async {
        // Given a loaded model whose next answer is slow
        dispatcher.stub(
            .get, "/items",
            responses: [.json([Item].ids(1)), .json([Item].ids(1, 2)).delayed(by: .seconds(1))])
        let model = model()
        await model.load().value

        // When it reloads
        let task = model.reload()

        // Then the old value stays on screen until the new one arrives
        #expect(model.state == .loading(previous: .ids(1)))
        await clock.waitForSleepers()
        clock.advance(by: .seconds(1))
        await task.value
        #expect(model.state == .loaded(.ids(1, 2)))
    }

    @Test func aFailedReloadKeepsThePreviousValue() async {
        // Given a loaded model whose reload fails
        dispatcher.stub(.get, "/items", responses: [.json([Item].ids(1)), .failure(.transport)])
        let model = model()
        await model.load().value

        // When it reloads
        await model.reload().value

        // Then the error is reported next to the value already shown
        #expect(model.state.error?.code == .transport)
        #expect(model.value == .ids(1))
        guard case .failed(_, previous: .some(let kept)) = model.state else {
            Issue.record("expected failed with a kept value, got \(model.state)")
            return
        }
        #expect(kept == .ids(1))
    }

    @Test func aSecondLoadWhileOneRunsStartsNothing() async {
        // Given a slow answer
        dispatcher.stub(.get, "/items", response: .json([Item].ids(1)).delayed(by: .seconds(1)))
        let model = model()

        // When load is called three times while it runs
        let first = model.load()
        await clock.waitForSleepers()
        model.load()
        model.load()
        await clock.waitForSleepers()

        // Then one request was sent, and the load completes once
        #expect(dispatcher.receivedRequests.count == 1)
        clock.advance(by: .seconds(1))
        await first.value
        #expect(model.state == .loaded(.ids(1)))
        #expect(dispatcher.receivedRequests.count == 1)
    }

    @Test func cancelGoesBackToTheValueItHad() async {
        // Given a loaded model reloading slowly
        dispatcher.stub(
            .get, "/items",
            responses: [.json([Item].ids(1)), .json([Item].ids(9)).delayed(by: .seconds(1))])
        let model = model()
        await model.load().value
        let task = model.reload()
        await clock.waitForSleepers()

        // When the reload is cancelled
        model.cancel()
        await task.value

        // Then the kept value is shown as loaded, and the late answer is never applied
        #expect(model.state == .loaded(.ids(1)))
        #expect(clock.sleeperCount == 0)
    }

    @Test func cancellingTheFirstLoadGoesBackToIdle() async {
        dispatcher.stub(.get, "/items", response: .json([Item].ids(1)).delayed(by: .seconds(1)))
        let model = model()
        let task = model.load()
        model.cancel()
        await task.value
        #expect(model.state == .idle)
    }

    @Test func anAnswerThatIgnoresCancellationIsDroppedAfterReload() async {
        // Given an operation that answers whenever the test says, cancelled or not
        let gate = Gate()
        var calls = 0
        let model = NetworkViewModel<Int> { () async throws(NetworkError) -> Int in
            calls += 1
            let call = calls
            await gate.wait(call)
            return call
        }
        let first = model.load()
        await waitUntil { gate.waiting.contains(1) }

        // When a reload replaces it and the first answer arrives last
        let second = model.reload()
        await waitUntil { gate.waiting.contains(2) }
        gate.open(2)
        await second.value
        gate.open(1)
        await first.value

        // Then the newer answer stays
        #expect(model.state == .loaded(2))
    }

    @Test func usesTheDefaultDispatcherWhenGivenNone() async {
        // Given a default dispatcher set for this test only
        dispatcher.stub(.get, "/items", response: .json([Item].ids(5)))
        let model = DefaultDispatcher.withOverride(dispatcher) {
            NetworkViewModel(Request<[Item]>(.get("/items")))
        }

        // When it loads
        await model.load().value

        // Then the request went through that dispatcher
        #expect(model.value == .ids(5))
        #expect(dispatcher.receivedRequests.count == 1)
    }

    @Test func usesTheRequestTheClosureBuildsAtEachLoad() async {
        // Given a request that depends on the screen's input
        dispatcher.stub(.get, "/items/*", response: .json([Item].ids(7)))
        @MainActor final class Screen { var id = 1 }
        let screen = Screen()
        let model = NetworkViewModel(dispatcher: dispatcher) { Request<[Item]>(.get("/items/\(screen.id)")) }

        // When it loads, the input changes, and it reloads
        await model.load().value
        screen.id = 2
        await model.reload().value

        // Then each load built its own request
        #expect(dispatcher.receivedRequests.map(\.path) == ["/items/1", "/items/2"])
    }
}

/// Holds operations until the test opens them, whether or not their task was cancelled.
@MainActor final class Gate {
    private var continuations: [Int: CheckedContinuation<Void, Never>] = [:]
    private(set) var waiting: Set<Int> = []

    func wait(_ id: Int) async {
        await withCheckedContinuation { continuation in
            continuations[id] = continuation
            waiting.insert(id)
        }
    }

    func open(_ id: Int) {
        continuations.removeValue(forKey: id)?.resume()
    }
}
