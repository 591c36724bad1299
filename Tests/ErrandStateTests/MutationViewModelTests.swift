import Errand
import ErrandState
import ErrandTestSupport
import Testing

@MainActor @Suite struct MutationViewModelTests {
    let clock = ManualClock()
    let dispatcher: InMemoryDispatcher

    init() {
        dispatcher = InMemoryDispatcher(clock: clock)
    }

    func model() -> MutationViewModel<Item, Item> {
        MutationViewModel(dispatcher: dispatcher) { (item: Item) in
            Request<Item>(.post("/items").body(.json(item)))
        }
    }

    @Test func aSuccessfulSubmitKeepsTheResult() async {
        // Given a server that answers slowly
        dispatcher.stub(.post, "/items", response: .json(Item(id: 7), status: 201).delayed(by: .seconds(1)))
        let model = model()

        // When the form is submitted
        let task = model.submit(Item(id: 0))

        // Then it is submitting until the answer, which becomes the last result
        #expect(model.isSubmitting)
        await clock.waitForSleepers()
        clock.advance(by: .seconds(1))
        await task.value
        #expect(!model.isSubmitting)
        #expect(model.lastResult == Item(id: 7))
        #expect(model.lastError == nil)
    }

    @Test func aFailedSubmitKeepsTheErrorAndTheNextSubmitClearsIt() async {
        // Given a server that refuses once, then accepts
        dispatcher.stub(.post, "/items", responses: [.status(422), .json(Item(id: 8))])
        let model = model()

        // When the form is submitted and refused
        await model.submit(Item(id: 0)).value

        // Then the error is kept with its status
        #expect(model.lastError?.statusCode == 422)
        #expect(model.lastResult == nil)
        #expect(!model.isSubmitting)

        // And a new submit clears it
        let retry = model.submit(Item(id: 0))
        #expect(model.lastError == nil)
        await retry.value
        #expect(model.lastResult == Item(id: 8))
    }

    @Test func aSecondSubmitWhileOneRunsSendsNothing() async {
        // Given a slow server
        dispatcher.stub(.post, "/items", response: .json(Item(id: 1)).delayed(by: .seconds(1)))
        let model = model()

        // When the button is tapped twice
        let first = model.submit(Item(id: 0))
        await clock.waitForSleepers()
        let second = model.submit(Item(id: 99))
        await clock.waitForSleepers()
        clock.advance(by: .seconds(1))
        await first.value
        await second.value

        // Then one request was sent, with the first input
        #expect(dispatcher.receivedRequests.count == 1)
        #expect(model.lastResult == Item(id: 1))
    }

    @Test func cancelStopsSubmitting() async {
        dispatcher.stub(.post, "/items", response: .json(Item(id: 1)).delayed(by: .seconds(1)))
        let model = model()
        let task = model.submit(Item(id: 0))
        model.cancel()
        await task.value
        #expect(!model.isSubmitting)
        #expect(model.lastResult == nil && model.lastError == nil)
    }
}
