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
    }

    private let request: RequestData
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

    /// Stops the work and reports `cancelled` now, unless the call has already finished.
    package func cancel() {
        let task = state.withLock { $0.task }
        task?.cancel()
        finish(.failure(.cancelled(request)))
    }

    private func finish(_ result: Result<NetworkResponse, NetworkError>) {
        let taken = state.withLock { state in
            defer { state = State() }
            return state
        }
        guard let onSuccess = taken.onSuccess, let onError = taken.onError else { return }
        switch result {
        case .success(let response): onSuccess(response)
        case .failure(let error): onError(error)
        }
    }
}
