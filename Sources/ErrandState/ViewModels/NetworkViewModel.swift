import Errand
import Observation

/// A view model for a screen behind one request: load it, reload it, cancel it.
///
/// ```swift
/// @MainActor let model = NetworkViewModel(GetProfile(), dispatcher: api)
/// model.load()                 // state: .loading(previous: nil), then .loaded(profile)
/// model.reload()               // state: .loading(previous: profile): the screen keeps it
/// ```
///
/// - ``load()`` starts the request unless one is running; a second call while it runs starts
///   nothing and returns the running task.
/// - ``reload()`` cancels the running request, if any, and starts again, keeping the value.
/// - ``cancel()`` stops the request; the state goes back to the value it had (or idle).
///
/// An answer that arrives after a cancel or a reload replaced its request is dropped. Each
/// method returns its task, so a SwiftUI `.task { await model.load().value }` or a test can
/// wait for it. Observable; main-actor isolated, and so `Sendable`.
@Observable @MainActor
public final class NetworkViewModel<Value: Sendable> {
    /// The state of the request, with the value kept while reloading and after a failure.
    public private(set) var state: Loadable<Value> = .idle

    @ObservationIgnored private let operation: @MainActor () async throws -> Value
    @ObservationIgnored private let work = WorkSlot()

    /// Creates a view model that runs `operation`, for work that is more than one request.
    ///
    /// - Parameter operation: Produces the value; it should end promptly when its task is
    ///   cancelled (requests sent with `execute` do).
    public init(operation: @escaping @MainActor () async throws -> Value) {
        self.operation = operation
    }

    /// Creates a view model that sends `request`.
    ///
    /// - Parameters:
    ///   - request: The request; its response type is the value.
    ///   - dispatcher: What sends it; `DefaultDispatcher.current` (read now) by default.
    public convenience init<Request: RequestType>(
        _ request: Request, dispatcher: any NetworkDispatcher = DefaultDispatcher.current
    ) where Request.ResponseType == Value {
        self.init { () async throws -> Value in
            try await request.exchange(through: dispatcher).value
        }
    }

    /// Creates a view model that sends the request `makeRequest` builds at each load, for a
    /// request that depends on the screen's current input.
    ///
    /// - Parameters:
    ///   - dispatcher: What sends it; `DefaultDispatcher.current` (read now) by default.
    ///   - makeRequest: Builds the request, on the main actor, each time one is sent.
    public convenience init<Request: RequestType>(
        dispatcher: any NetworkDispatcher = DefaultDispatcher.current,
        request makeRequest: @escaping @MainActor () -> Request
    ) where Request.ResponseType == Value {
        self.init { () async throws -> Value in
            try await makeRequest().exchange(through: dispatcher).value
        }
    }

    /// The value, loaded or kept.
    public var value: Value? { state.value }

    /// Whether a request is running.
    public var isLoading: Bool { state.isLoading }

    /// Starts the request, unless one is already running.
    ///
    /// - Returns: The task that runs it: the running one when there is one.
    @discardableResult
    public func load() -> Task<Void, Never> {
        if let running = work.task { return running }
        return start()
    }

    /// Cancels the running request, if any, and sends it again, keeping the current value.
    ///
    /// - Returns: The task that runs it.
    @discardableResult
    public func reload() -> Task<Void, Never> {
        start()
    }

    /// Cancels the running request; the state goes back to the value it had, or idle.
    public func cancel() {
        guard work.isRunning else { return }
        work.cancel()
        state = state.settled
    }

    private func start() -> Task<Void, Never> {
        state = state.startingLoad
        return work.start { [weak self] generation in
            guard let operation = self?.operation else { return }
            let result = await Result.running(operation)
            guard let self, self.work.isCurrent(generation) else { return }
            self.state = self.state.finishing(with: result)
        }
    }
}
