import ErrandSync
import Foundation

/// A dispatcher that answers from stubs in memory and never touches the network.
///
/// ```swift
/// let dispatcher = InMemoryDispatcher()
/// dispatcher.stub(.get, "/users", response: .json([User(id: 1, name: "Ada")]))
/// let users = try await GetAllUsers().execute(dispatcher: dispatcher)
/// #expect(dispatcher.receivedRequests.map(\.path) == ["/users"])
/// ```
///
/// Stubs match by method and path (a `*` segment matches any one segment), optionally by query
/// items and by a closure. When several match, the one added last wins, so a test can override a
/// default. A stub answers with its responses in turn; when they are used up it repeats the last
/// one or fails, as you choose. Every request is recorded in ``receivedRequests``. A request no
/// stub matches fails with `unmatchedRequest` and a message that shows the nearest stubs.
///
/// Requests are checked as `URLSessionDispatcher` checks them (``RequestData/validate()``), and
/// their paths are read as it reads them, so a request refused there is refused here with the
/// same `invalidRequest`, and is not recorded.
///
/// Responses without latency are delivered before `dispatch` returns; with latency they wait on
/// the injected clock, so tests control time instead of sleeping. A request sent with progress
/// reports one upload event of its body's size when it arrives and one download event of the
/// stub's body just before the answer. Thread-safe.
public final class InMemoryDispatcher: NetworkDispatcher {
    private struct State {
        var stubs: [StubEntry] = []
        var received: [RequestData] = []
        /// The last request's path, query and target: a test or a demo sends the same request
        /// again and again, and reading a path costs more than the rest of the match.
        var lastTarget: (path: String, query: [URLQueryItem], target: StubTarget)?
    }

    private let state = Locked(State())
    private let clock: any Clock<Duration>
    private let latency: Duration
    private let recordsRequests: Bool

    /// Creates a dispatcher.
    ///
    /// - Parameters:
    ///   - stubs: The stubs to start with; later ones win over earlier ones.
    ///   - latency: A delay added before every response, waited on `clock`.
    ///   - clock: The clock that delays wait on; inject a manual clock in tests.
    ///   - recordsRequests: Whether to keep every request in ``receivedRequests``; turn it off
    ///     for long runs (demos, benchmarks) where the history would only grow.
    public init(
        stubs: [Stub] = [], latency: Duration = .zero, clock: any Clock<Duration> = ContinuousClock(),
        recordsRequests: Bool = true
    ) {
        self.clock = clock
        self.latency = latency
        self.recordsRequests = recordsRequests
        for stub in stubs { self.stub(stub) }
    }

    /// Adds a stub; it wins over the stubs added before it.
    public func stub(_ stub: Stub) {
        let entry = StubEntry(stub: stub)
        state.withLock { $0.stubs.append(entry) }
    }

    /// Adds a stub that answers `method path` with `response`, every time.
    public func stub(_ method: HTTPMethod, _ path: String, response: Response) {
        stub(Stub(method, path, responses: [response]))
    }

    /// Adds a stub that answers `method path` with `responses` in turn.
    ///
    /// - Parameters:
    ///   - method: The method to answer.
    ///   - path: The path to answer; a `*` segment matches any one segment.
    ///   - responses: The answers, one per request, in order.
    ///   - whenExhausted: What happens after the last response: repeat it (the default)
    ///     or fail with `unmatchedRequest`.
    public func stub(
        _ method: HTTPMethod, _ path: String, responses: [Response],
        whenExhausted: Stub.Exhaustion = .repeatLast
    ) {
        stub(Stub(method, path, responses: responses, whenExhausted: whenExhausted))
    }

    /// Every request received, in order, as it was dispatched.
    public var receivedRequests: [RequestData] {
        state.withLock { $0.received }
    }

    /// Removes every stub and forgets the received requests.
    public func reset() {
        state.withLock { $0 = State() }
    }

    /// Answers `request` from the stubs.
    @discardableResult
    public func dispatch(
        request: RequestData,
        onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        do throws(NetworkError) {
            try request.requireValid()
        } catch {
            onError(error)
            return FinishedCancellable()
        }
        let outcome = state.withLock { state -> Result<Response, NetworkError> in
            let target: StubTarget
            if let last = state.lastTarget, last.path == request.path, last.query == request.query {
                target = last.target
            } else {
                do throws(NetworkError) {
                    target = try request.stubTarget()
                } catch {
                    return .failure(error)
                }
                state.lastTarget = (request.path, request.query, target)
            }
            if recordsRequests { state.received.append(request) }
            return Self.select(request, target, in: &state)
        }
        let response: Response
        switch outcome {
        case .success(let selected): response = selected
        case .failure(let error):
            onError(error)
            return FinishedCancellable()
        }
        // The body goes out at once; the answer's bytes come with it, after any delay.
        request.progress?.reportUpload(of: request.body?.data?.count ?? 0)
        let delay = latency + (response.delay ?? .zero)
        guard delay > .zero else {
            response.deliver(for: request, onSuccess: onSuccess, onError: onError)
            return FinishedCancellable()
        }
        return DelayedDelivery.start(after: delay, on: clock) {
            response.deliver(for: request, onSuccess: onSuccess, onError: onError)
        } onCancel: {
            onError(.cancelled(request))
        }
    }

    /// The response for `request`: the last-added matching stub's next one, or why there is none.
    private static func select(_ request: RequestData, _ target: StubTarget, in state: inout State) -> Result<
        Response, NetworkError
    > {
        guard let index = state.stubs.lastIndex(where: { $0.matches(target, request) }) else {
            return .failure(UnmatchedReport.error(for: request, target: target, stubs: state.stubs))
        }
        let stub = state.stubs[index].stub
        let position = state.stubs[index].served
        state.stubs[index].served += 1
        if position < stub.responses.count { return .success(stub.responses[position]) }
        if stub.whenExhausted == .repeatLast, let last = stub.responses.last { return .success(last) }
        return .failure(
            NetworkError(
                code: .unmatchedRequest,
                message: "The stub \(stub) has served all \(stub.responses.count) of its responses "
                    + "and is set to fail when used up (request \(position + 1) to it). Add responses, "
                    + "or pass whenExhausted: .repeatLast.",
                request: request))
    }
}
