import Errand
import Observation

/// A view model for a list that loads page by page.
///
/// ```swift
/// let model = ListViewModel(dispatcher: api, pagination: .pages(size: 20)) { query in
///     GetUsers(page: query.page, perPage: 20)          // answers [User]
/// }
/// model.load()            // first page: state .loading(previous: nil), then .loaded(users)
/// model.loadNextPage()    // isLoadingMore while it runs; the items grow
/// ```
///
/// - ``loadNextPage()`` asks for the page after the last one, unless the end was reached
///   (``hasMore`` is false). Calls made while a page is loading are merged into that load:
///   they return its task and send nothing, so a list that calls it from every cell's
///   `onAppear` never loads a page twice.
/// - ``refresh()`` starts over from the first page, keeping the items on screen until it
///   answers; a page of the old run that arrives late is dropped.
/// - A failed next page sets ``nextPageError`` and keeps the list; calling ``loadNextPage()``
///   again asks for the same page.
///
/// Observable; main-actor isolated, and so `Sendable`.
@Observable @MainActor
public final class ListViewModel<Item: Sendable> {
    /// The list: loading the first page, loaded with every page so far, or failed.
    public private(set) var state: Loadable<[Item]> = .idle
    /// Whether a next page is loading.
    public private(set) var isLoadingMore = false
    /// Whether more pages follow; false once a page said it was the last.
    public private(set) var hasMore = true
    /// Why the last next page failed, until another one is asked for.
    public private(set) var nextPageError: NetworkError?

    @ObservationIgnored private let pagination: Pagination
    @ObservationIgnored private let fetchPage: @MainActor (PageQuery) async throws -> ListPage<Item>
    @ObservationIgnored private var nextQuery: PageQuery?
    @ObservationIgnored private let work = WorkSlot()

    /// Creates a list that loads its pages with `fetchPage`.
    ///
    /// - Parameters:
    ///   - pagination: How pages are asked for and how the end is found.
    ///   - fetchPage: Loads the page `query` names; it should end promptly when its task is
    ///     cancelled (requests sent with `execute` do).
    public init(
        pagination: Pagination,
        fetchPage: @escaping @MainActor (PageQuery) async throws -> ListPage<Item>
    ) {
        self.pagination = pagination
        self.fetchPage = fetchPage
    }

    /// Creates a list whose pages come from requests whose answers `page` turns into pages.
    ///
    /// - Parameters:
    ///   - dispatcher: What sends the requests; `DefaultDispatcher.current` (read now) by default.
    ///   - pagination: How pages are asked for and how the end is found.
    ///   - makeRequest: Builds the request for a page.
    ///   - page: Turns an answer into a page: its items, and the next cursor or whether more follow.
    public convenience init<Request: RequestType>(
        dispatcher: any NetworkDispatcher = DefaultDispatcher.current, pagination: Pagination,
        request makeRequest: @escaping @MainActor (PageQuery) -> Request,
        page: @escaping @Sendable (Request.ResponseType) -> ListPage<Item>
    ) {
        self.init(pagination: pagination) { query async throws -> ListPage<Item> in
            page(try await makeRequest(query).exchange(through: dispatcher).value)
        }
    }

    /// Creates a list whose pages are requests that answer with an array of items.
    ///
    /// - Parameters:
    ///   - dispatcher: What sends the requests; `DefaultDispatcher.current` (read now) by default.
    ///   - pagination: How pages are asked for; with numbered pages, a short page is the last.
    ///   - makeRequest: Builds the request for a page.
    public convenience init<Request: RequestType>(
        dispatcher: any NetworkDispatcher = DefaultDispatcher.current, pagination: Pagination,
        request makeRequest: @escaping @MainActor (PageQuery) -> Request
    ) where Request.ResponseType == [Item] {
        self.init(dispatcher: dispatcher, pagination: pagination, request: makeRequest) {
            ListPage($0)
        }
    }

    /// Every item loaded so far, or kept while refreshing.
    public var items: [Item] { state.value ?? [] }

    /// Whether anything is loading: the first page, a refresh, or a next page.
    public var isLoading: Bool { state.isLoading || isLoadingMore }

    /// Loads the first page, unless a load is running or a page is already loaded.
    ///
    /// - Returns: The task that loads it, the running one, or a finished one.
    @discardableResult
    public func load() -> Task<Void, Never> {
        if let running = work.task { return running }
        guard state.value == nil else { return WorkSlot.done }
        return startFirstPage()
    }

    /// Loads the page after the last one; merged into the load that is running, if any.
    ///
    /// Loads the first page when none is loaded yet; does nothing once the end is reached.
    ///
    /// - Returns: The task that loads it, the running one, or a finished one.
    @discardableResult
    public func loadNextPage() -> Task<Void, Never> {
        if let running = work.task { return running }
        guard state.value != nil else { return startFirstPage() }
        guard hasMore, let query = nextQuery else { return WorkSlot.done }
        isLoadingMore = true
        nextPageError = nil
        return run(query)
    }

    /// Starts over from the first page, keeping the items on screen until it answers.
    ///
    /// A load that is running is cancelled, and its page is dropped if it still arrives.
    ///
    /// - Returns: The task that loads the first page.
    @discardableResult
    public func refresh() -> Task<Void, Never> {
        startFirstPage()
    }

    /// Cancels the running load; the list keeps what it had.
    public func cancel() {
        guard work.isRunning else { return }
        work.cancel()
        state = state.settled
        isLoadingMore = false
    }

    private func startFirstPage() -> Task<Void, Never> {
        let query = pagination.firstQuery
        state = state.startingLoad
        isLoadingMore = false
        nextPageError = nil
        return run(query)
    }

    /// Loads the page `query` names and adds it, if this run is still the current one.
    ///
    /// The task holds the fetch, not the view model: releasing the view model cancels the task
    /// (see ``WorkSlot``), and so the request.
    private func run(_ query: PageQuery) -> Task<Void, Never> {
        work.start { [weak self, fetchPage] generation in
            let result = await Result.running { try await fetchPage(query) }
            self?.add(result, for: query, generation: generation)
        }
    }

    /// Adds the page that `query` answered, if its run is still the current one.
    private func add(_ result: Result<ListPage<Item>, NetworkError>, for query: PageQuery, generation: Int) {
        guard work.isCurrent(generation) else { return }
        isLoadingMore = false
        switch result {
        case .success(let page):
            state = .loaded(query.index == 0 ? page.items : items + page.items)
            nextQuery = pagination.query(after: query, answered: page)
            hasMore = nextQuery != nil
        case .failure(let error) where query.index == 0:
            state = state.failing(with: error)
        case .failure(let error):
            nextPageError = error
        }
    }
}
