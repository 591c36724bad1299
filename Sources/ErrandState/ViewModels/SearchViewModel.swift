import Errand
import Observation

/// A view model for a search box: debounces the typing, and lets only the newest query answer.
///
/// ```swift
/// let search = SearchViewModel(dispatcher: api) { text in SearchUsers(text) }
/// search.query = "ad"        // after the debounce: one request; state .loaded(results)
/// ```
///
/// - Setting ``query`` waits out the debounce on the injected clock; each keystroke inside the
///   window starts the wait again, so a burst of typing sends one request.
/// - A new query cancels the request in flight, and an answer from an older query is dropped
///   even if it still arrives, so a slow old answer can never replace a newer one.
/// - A query shorter than the minimum length (after trimming spaces) clears the results at
///   once, without a request.
///
/// Generic over the clock so tests move time by hand. Observable; main-actor isolated, and so
/// `Sendable`.
@Observable @MainActor
public final class SearchViewModel<Value: Sendable, C: Clock> where C.Duration == Duration {
    /// The text to search for; setting it schedules a search.
    public var query: String = "" {
        didSet {
            if query != oldValue { schedule() }
        }
    }
    /// The results of the newest query, kept while the next one loads.
    public private(set) var state: Loadable<Value> = .idle

    @ObservationIgnored private let search: @MainActor (String) async throws -> Value
    @ObservationIgnored private let clock: C
    @ObservationIgnored private let debounce: Duration
    @ObservationIgnored private let minimumLength: Int
    @ObservationIgnored private let work = WorkSlot()

    /// Creates a search that runs `search` for each query that outlives the debounce.
    ///
    /// - Parameters:
    ///   - debounce: How long typing must pause before a search starts; 300 ms by default.
    ///   - minimumLength: The fewest characters worth searching for; shorter queries clear the
    ///     results. 1 by default.
    ///   - clock: The clock the debounce waits on; inject a manual one in tests.
    ///   - search: Searches for the text; it should end promptly when its task is cancelled
    ///     (requests sent with `execute` do).
    public init(
        debounce: Duration = .milliseconds(300), minimumLength: Int = 1, clock: C,
        search: @escaping @MainActor (String) async throws -> Value
    ) {
        self.debounce = debounce
        self.minimumLength = minimumLength
        self.clock = clock
        self.search = search
    }

    /// Creates a search that sends the request `makeRequest` builds for each query.
    ///
    /// - Parameters:
    ///   - dispatcher: What sends the requests; `DefaultDispatcher.current` (read now) by default.
    ///   - debounce: How long typing must pause before a search starts.
    ///   - minimumLength: The fewest characters worth searching for.
    ///   - clock: The clock the debounce waits on.
    ///   - makeRequest: Builds the request for the trimmed query text.
    public convenience init<Request: RequestType>(
        dispatcher: any NetworkDispatcher = DefaultDispatcher.current,
        debounce: Duration = .milliseconds(300), minimumLength: Int = 1, clock: C,
        request makeRequest: @escaping @MainActor (String) -> Request
    ) where Request.ResponseType == Value {
        self.init(debounce: debounce, minimumLength: minimumLength, clock: clock) {
            text async throws -> Value in
            try await makeRequest(text).exchange(through: dispatcher).value
        }
    }

    /// The results, of the newest query or kept while the next loads.
    public var results: Value? { state.value }

    /// Whether a search is waiting out the debounce or running.
    public var isSearching: Bool { state.isLoading }

    /// Searches for the current query now, without waiting for the debounce.
    ///
    /// - Returns: The task that runs the search.
    @discardableResult
    public func submit() -> Task<Void, Never> {
        start(waiting: .zero)
    }

    /// Cancels the pending or running search; the results stay as they were.
    public func cancel() {
        guard work.isRunning else { return }
        work.cancel()
        state = state.settled
    }

    private func schedule() {
        start(waiting: debounce)
    }

    @discardableResult
    private func start(waiting delay: Duration) -> Task<Void, Never> {
        let text = query.trimmingSpaces
        guard text.count >= max(minimumLength, 1) else {
            work.cancel()
            state = .idle
            return WorkSlot.done
        }
        state = state.startingLoad
        let clock = clock
        let search = search
        return work.start { [weak self] generation in
            if delay > .zero {
                do {
                    try await clock.sleep(for: delay.clampedToLongest)
                } catch {
                    return  // a newer keystroke cancelled the wait
                }
            }
            let result = await Result.running { try await search(text) }
            guard let self, self.work.isCurrent(generation) else { return }
            self.state = self.state.finishing(with: result)
        }
    }
}

extension SearchViewModel where C == ContinuousClock {
    /// Creates a search that sends the request `makeRequest` builds, debounced on the
    /// continuous clock.
    ///
    /// - Parameters:
    ///   - dispatcher: What sends the requests; `DefaultDispatcher.current` (read now) by default.
    ///   - debounce: How long typing must pause before a search starts; 300 ms by default.
    ///   - minimumLength: The fewest characters worth searching for; 1 by default.
    ///   - makeRequest: Builds the request for the trimmed query text.
    public convenience init<Request: RequestType>(
        dispatcher: any NetworkDispatcher = DefaultDispatcher.current,
        debounce: Duration = .milliseconds(300), minimumLength: Int = 1,
        request makeRequest: @escaping @MainActor (String) -> Request
    ) where Request.ResponseType == Value {
        self.init(
            dispatcher: dispatcher, debounce: debounce, minimumLength: minimumLength,
            clock: ContinuousClock(), request: makeRequest)
    }
}

extension String {
    /// The text without leading and trailing spaces and newlines.
    fileprivate var trimmingSpaces: String {
        let scalars = unicodeScalars
        let isSpace: (Unicode.Scalar) -> Bool = { $0.properties.isWhitespace }
        guard let start = scalars.firstIndex(where: { !isSpace($0) }),
            let end = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(scalars[start...end])
    }
}
