import ErrandSync

/// Runs a dispatcher's async work as one dispatch: exactly one callback, and a cancel that stops
/// the work and reports `cancelled` at once, whatever the work is waiting on.
///
/// Shared by the policies and by `ErrandReplay` (recording through an upstream, waiting the
/// recorded time). Policies write their logic as plain async code (`try await inner.dispatch(request)`, clock
/// sleeps, token refreshes); the task's cancellation reaches the inner dispatch through
/// ``NetworkDispatcher/dispatch(_:)``.
package final class PolicyCall: Cancellable {
    private struct State {
        var onSuccess: (@Sendable (NetworkResponse) -> Void)?
        var onError: (@Sendable (NetworkError) -> Void)?
        var task: Task<Void, Never>?
        /// The inner dispatch of a call whose first step runs on callbacks, without a task.
        var handle: (any Cancellable)?
    }

    /// The request as the policy was handed it.
    package let request: RequestData
    private let state: Locked<State>

    private init(
        request: RequestData, onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) {
        self.request = request
        self.state = Locked(State(onSuccess: onSuccess, onError: onError))
    }

    /// Starts `operation` in a task and reports its outcome through the callbacks.
    package static func start(
        request: RequestData, onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void,
        operation: @escaping @Sendable () async throws(NetworkError) -> NetworkResponse
    ) -> PolicyCall {
        let call = PolicyCall(request: request, onSuccess: onSuccess, onError: onError)
        let task = Task {
            do throws(NetworkError) {
                call.finish(.success(try await operation()))
            } catch {
                call.finish(.failure(error.attaching(request)))
            }
        }
        let finished = call.state.withLock { state in
            guard state.onError != nil else { return true }
            state.task = task
            return false
        }
        if finished { task.cancel() }
        return call
    }

    /// A call whose first step runs on callbacks, with no task: the policy hands the inner
    /// dispatch to ``attach(_:)``, then ends the call with ``finish(_:)`` or goes on in a task with
    /// ``proceed(_:)`` when it has to wait (a backoff, a token refresh).
    package static func begin(
        request: RequestData, onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> PolicyCall {
        PolicyCall(request: request, onSuccess: onSuccess, onError: onError)
    }

    /// Records the inner dispatch, so that a cancel reaches it; forgotten when the call has ended.
    package func attach(_ handle: any Cancellable) {
        state.withLock { state in
            if state.onError != nil, state.task == nil { state.handle = handle }
        }
    }

    /// Goes on with `operation` in a task, whose outcome ends the call; nothing starts when the
    /// call has already ended (cancelled while its first step ran).
    package func proceed(_ operation: @escaping @Sendable () async throws(NetworkError) -> NetworkResponse) {
        let started = state.withLock { state in
            guard state.onError != nil else { return false }
            state.handle = nil
            return true
        }
        guard started else { return }
        let task = Task { [request] in
            do throws(NetworkError) {
                self.finish(.success(try await operation()))
            } catch {
                self.finish(.failure(error.attaching(request)))
            }
        }
        let finished = state.withLock { state in
            guard state.onError != nil else { return true }
            state.task = task
            return false
        }
        if finished { task.cancel() }
    }

    /// Stops the work and reports `cancelled` now, unless the call has already finished.
    package func cancel() {
        // One step: read apart from the ending, a task that `proceed` stored in between would be
        // dropped with the state, never cancelled, and its wait would go on.
        let taken = takeState()
        taken.task?.cancel()
        taken.handle?.cancel()
        taken.onError?(.cancelled(request))
    }

    /// Ends the call with `result`, unless it has ended already.
    package func finish(_ result: Result<NetworkResponse, NetworkError>) {
        switch result {
        case .success(let response): succeed(response)
        case .failure(let error): take()?.onError(error)
        }
    }

    /// Ends the call with `response`, unless it has ended already.
    package func succeed(_ response: NetworkResponse) {
        take()?.onSuccess(response)
    }

    /// Ends the call with `error`, attached to the call's request, unless it has ended already.
    package func fail(_ error: NetworkError) {
        take()?.onError(error.attaching(request))
    }

    /// Everything the call holds, moved out in one step; the call holds nothing from then on.
    private func takeState() -> State {
        var taken = State()
        state.withLock { swap(&$0, &taken) }
        return taken
    }

    /// The callbacks, the first time only; the call holds nothing from then on.
    private func take() -> (
        onSuccess: @Sendable (NetworkResponse) -> Void, onError: @Sendable (NetworkError) -> Void
    )? {
        let taken = takeState()
        guard let onSuccess = taken.onSuccess, let onError = taken.onError else { return nil }
        return (onSuccess, onError)
    }
}
