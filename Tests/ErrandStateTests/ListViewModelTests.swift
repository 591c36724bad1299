import Errand
import ErrandState
import ErrandTestSupport
import Testing

@MainActor @Suite struct ListViewModelTests {
    let clock = ManualClock()
    let dispatcher: InMemoryDispatcher

    init() {
        dispatcher = InMemoryDispatcher(clock: clock)
    }

    /// Numbered pages of two items: /items?page=N.
    func pagedModel() -> ListViewModel<Item> {
        ListViewModel(dispatcher: dispatcher, pagination: .pages(size: 2)) { query in
            Request<[Item]>(.get("/items").query("page", "\(query.page)"))
        }
    }

    var pagesAsked: [String] {
        dispatcher.receivedRequests.map { $0.query.first { $0.name == "page" }?.value ?? "-" }
    }

    @Test func numberedPagesLoadToTheEnd() async {
        // Given three pages, the last one short
        dispatcher.stub(.get, "/items?page=1", response: .json([Item].ids(1, 2)))
        dispatcher.stub(.get, "/items?page=2", response: .json([Item].ids(3, 4)))
        dispatcher.stub(.get, "/items?page=3", response: .json([Item].ids(5)))
        let model = pagedModel()

        // When the first page and then next pages load
        await model.load().value
        #expect(model.state == .loaded(.ids(1, 2)))
        #expect(model.hasMore)
        await model.loadNextPage().value
        await model.loadNextPage().value

        // Then every item is there, the end is found, and no further page is asked for
        #expect(model.items == .ids(1, 2, 3, 4, 5))
        #expect(!model.hasMore)
        await model.loadNextPage().value
        #expect(pagesAsked == ["1", "2", "3"])
    }

    @Test func offsetAndLimitAreHandedToTheRequest() async {
        // Given an API that takes offset and limit
        dispatcher.stub(.get, "/items", response: .json([Item].ids(1, 2, 3)))
        var queries: [PageQuery] = []
        let model = ListViewModel<Item>(dispatcher: dispatcher, pagination: .pages(size: 3, firstPage: 0)) {
            query in
            queries.append(query)
            return Request<[Item]>(.get("/items"))
        }

        // When two pages load
        await model.load().value
        await model.loadNextPage().value

        // Then the second page starts after the first one's items
        #expect(queries.map(\.offset) == [0, 3])
        #expect(queries.map(\.page) == [0, 1])
        #expect(queries.map(\.limit) == [3, 3])
    }

    @Test func cursorPagesLoadToTheEnd() async {
        // Given a feed of two pages linked by a cursor
        dispatcher.stub(.get, "/feed", response: .json(Feed(items: .ids(1, 2), next: "c2")))
        dispatcher.stub(.get, "/feed?cursor=c2", response: .json(Feed(items: .ids(3), next: nil)))
        let model = ListViewModel<Item>(
            dispatcher: dispatcher, pagination: .cursor,
            request: { query in
                Request<Feed>(
                    query.cursor.map { RequestData.get("/feed").query("cursor", $0) } ?? .get("/feed"))
            },
            page: { feed in ListPage(feed.items, nextCursor: feed.next) })

        // When it loads to the end
        await model.load().value
        #expect(model.hasMore)
        await model.loadNextPage().value
        await model.loadNextPage().value

        // Then the second page was asked for with the first one's cursor, and the end was found
        #expect(model.items == .ids(1, 2, 3))
        #expect(!model.hasMore)
        #expect(dispatcher.receivedRequests.map { $0.query.compactMap(\.value) } == [[], ["c2"]])
    }

    @Test func concurrentNextPageCallsAreMergedIntoOneLoad() async {
        // Given a loaded first page and a slow second page
        dispatcher.stub(.get, "/items?page=1", response: .json([Item].ids(1, 2)))
        dispatcher.stub(.get, "/items?page=2", response: .json([Item].ids(3, 4)).delayed(by: .seconds(1)))
        let model = pagedModel()
        await model.load().value

        // When three cells ask for the next page while it loads
        let first = model.loadNextPage()
        #expect(model.isLoadingMore)
        await clock.waitForSleepers()
        let second = model.loadNextPage()
        let third = model.loadNextPage()
        await clock.waitForSleepers()
        clock.advance(by: .seconds(1))
        await first.value
        await second.value
        await third.value

        // Then page 2 was asked for once and added once
        #expect(pagesAsked == ["1", "2"])
        #expect(model.items == .ids(1, 2, 3, 4))
        #expect(!model.isLoadingMore)
    }

    @Test func refreshDropsAPageOfTheOldRunThatArrivesLate() async {
        // Given a slow page 2 in flight
        dispatcher.stub(
            .get, "/items?page=1", responses: [.json([Item].ids(1, 2)), .json([Item].ids(10, 20))])
        dispatcher.stub(.get, "/items?page=2", response: .json([Item].ids(3, 4)).delayed(by: .seconds(5)))
        let model = pagedModel()
        await model.load().value
        let late = model.loadNextPage()
        await clock.waitForSleepers()

        // When the list is refreshed and then the old page's time comes
        let refresh = model.refresh()
        #expect(model.state == .loading(previous: .ids(1, 2)))
        await refresh.value
        clock.advance(by: .seconds(5))
        await late.value

        // Then the list is the new first page only, with no error and nothing loading
        #expect(model.state == .loaded(.ids(10, 20)))
        #expect(model.nextPageError == nil)
        #expect(!model.isLoadingMore)
        #expect(model.hasMore)
    }

    @Test func aLatePageThatIgnoresCancellationIsDroppedAfterRefresh() async {
        // Given pages that answer whenever the test says, cancelled or not
        let gate = Gate()
        var calls = 0
        let model = ListViewModel<Item>(pagination: .pages(size: 1)) { query async throws(NetworkError) in
            calls += 1
            let call = calls
            if query.index > 0 { await gate.wait(call) }
            return ListPage([Item(id: call)])
        }
        await model.load().value
        let late = model.loadNextPage()
        await waitUntil { gate.waiting.contains(2) }

        // When a refresh answers before the old run's page 2
        await model.refresh().value
        gate.open(2)
        await late.value

        // Then page 2 of the old run is not appended to the new list
        #expect(model.items == [Item(id: 3)])
    }

    @Test func aFailedNextPageKeepsTheListAndIsAskedForAgain() async {
        // Given page 2 failing once
        dispatcher.stub(.get, "/items?page=1", response: .json([Item].ids(1, 2)))
        dispatcher.stub(.get, "/items?page=2", responses: [.failure(.transport), .json([Item].ids(3))])
        let model = pagedModel()
        await model.load().value

        // When page 2 fails
        await model.loadNextPage().value

        // Then the list stays, the error is reported, and the next call asks for page 2 again
        #expect(model.state == .loaded(.ids(1, 2)))
        #expect(model.nextPageError?.code == .transport)
        await model.loadNextPage().value
        #expect(model.items == .ids(1, 2, 3))
        #expect(model.nextPageError == nil)
        #expect(pagesAsked == ["1", "2", "2"])
    }

    @Test func aFailedFirstPageReportsTheError() async {
        dispatcher.stub(.get, "/items", response: .status(503))
        let model = pagedModel()
        await model.loadNextPage().value
        #expect(model.state.error?.statusCode == 503)
        #expect(model.items.isEmpty)
    }
}
