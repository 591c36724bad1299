import Errand
import ErrandState
import ErrandTestSupport
import Testing

@MainActor @Suite struct SearchViewModelTests {
    /// The clock the debounce waits on.
    let typing = ManualClock()
    /// The clock the stubbed answers wait on.
    let network = ManualClock()
    let dispatcher: InMemoryDispatcher

    init() {
        dispatcher = InMemoryDispatcher(clock: network)
    }

    func model(minimumLength: Int = 1) -> SearchViewModel<[Item], ManualClock> {
        SearchViewModel(
            dispatcher: dispatcher, debounce: .milliseconds(300), minimumLength: minimumLength, clock: typing
        ) { text in
            Request<[Item]>(.get("/search").query("q", text))
        }
    }

    var queriesSent: [String] {
        dispatcher.receivedRequests.map { $0.query.first { $0.name == "q" }?.value ?? "-" }
    }

    @Test func fiveKeystrokesInsideTheWindowSendOneRequest() async {
        // Given a search debounced by 300 ms
        dispatcher.stub(.get, "/search", response: .json([Item].ids(1)))
        let model = model()

        // When five keystrokes come 100 ms apart
        for text in ["s", "sw", "swi", "swif", "swift"] {
            model.query = text
            await typing.waitForSleepers()
            typing.advance(by: .milliseconds(100))
        }
        #expect(dispatcher.receivedRequests.isEmpty)
        #expect(model.isSearching)
        typing.advance(by: .milliseconds(200))
        await waitUntil("results") { model.state == .loaded(.ids(1)) }

        // Then one request was sent, for the last text
        #expect(queriesSent == ["swift"])
    }

    @Test func aSlowAnswerToAnOlderQueryNeverReplacesTheNewerOne() async {
        // Given an answer to "a" slower than the answer to "ab"
        dispatcher.stub(.get, "/search?q=a", response: .json([Item].ids(1)).delayed(by: .seconds(5)))
        dispatcher.stub(.get, "/search?q=ab", response: .json([Item].ids(2)).delayed(by: .seconds(1)))
        let model = model()

        // When "a" is sent, then "ab" while "a" is still in flight
        model.query = "a"
        await typing.waitForSleepers()
        typing.advance(by: .milliseconds(300))
        await waitUntil("the first request") { dispatcher.receivedRequests.count == 1 }
        model.query = "ab"
        await typing.waitForSleepers()
        typing.advance(by: .milliseconds(300))
        await waitUntil("the second request") { dispatcher.receivedRequests.count == 2 }

        // Then "ab" answers first, and when "a"'s time comes its answer does not replace it
        await network.waitForSleepers()
        network.advance(by: .seconds(1))
        await waitUntil("the newer results") { model.state == .loaded(.ids(2)) }
        network.advance(by: .seconds(5))
        for _ in 0..<1_000 { await Task.yield() }
        #expect(model.state == .loaded(.ids(2)))
        #expect(queriesSent == ["a", "ab"])
        #expect(network.sleeperCount == 0)
    }

    @Test func aQueryShorterThanTheMinimumClearsTheResultsWithoutARequest() async {
        // Given results for "swift"
        dispatcher.stub(.get, "/search", response: .json([Item].ids(1)))
        let model = model(minimumLength: 3)
        model.query = "swift"
        await model.submit().value
        #expect(model.results == .ids(1))

        // When the query is cut to two characters, or to spaces
        model.query = "sw"

        // Then the results are cleared at once and nothing is sent
        #expect(model.state == .idle)
        model.query = "     "
        #expect(model.state == .idle)
        #expect(typing.sleeperCount == 0)
        #expect(queriesSent == ["swift"])
    }

    @Test func aShortQueryCancelsTheSearchWaitingToStart() async {
        // Given a keystroke waiting out its debounce
        dispatcher.stub(.get, "/search", response: .json([Item].ids(1)))
        let model = model(minimumLength: 2)
        model.query = "ab"
        await typing.waitForSleepers()

        // When the text is deleted before the debounce ends
        model.query = "a"
        typing.advance(by: .seconds(1))
        for _ in 0..<100 { await Task.yield() }

        // Then no request is sent
        #expect(dispatcher.receivedRequests.isEmpty)
        #expect(model.state == .idle)
    }

    @Test func aDebounceTooLongForTheClockWaitsUntilTheQueryChanges() async {
        // Given a search debounced by Int64.max seconds on the continuous clock (which stopped
        // the process at 8971c84: a deadline past what its Int64 seconds hold)
        let clock = WatchedClock()
        let model = SearchViewModel(dispatcher: dispatcher, debounce: .seconds(Int64.max), clock: clock) {
            text in
            Request<[Item]>(.get("/search").query("q", text))
        }

        // When a query waits out the debounce, and is then deleted
        model.query = "swift"
        await clock.waitForSleeps()
        model.query = ""

        // Then nothing was sent, and the search is idle
        #expect(dispatcher.receivedRequests.isEmpty)
        #expect(model.state == .idle)
    }

    @Test func aFailedSearchKeepsThePreviousResults() async {
        // Given results for one query and a failure for the next
        dispatcher.stub(.get, "/search?q=ok", response: .json([Item].ids(1)))
        dispatcher.stub(.get, "/search?q=down", response: .status(502))
        let model = model()
        model.query = "ok"
        await model.submit().value

        // When the next query fails
        model.query = "down"
        await model.submit().value

        // Then the error is shown next to the results already there
        #expect(model.state.error?.statusCode == 502)
        #expect(model.results == .ids(1))
    }
}
