import Errand
import Synchronization

/// Runs a replay dispatcher's async work (recording through the upstream, waiting the recorded
/// time) as one dispatch: exactly one callback, and a cancel that stops the work and reports
/// `cancelled` at once, whatever the work is waiting on.
final class ReplayCall: Cancellable {
    private struct State {
        var onSuccess: (@Sendable (NetworkResponse) -> Void)?
        var onError: (@Sendable (NetworkError) -> Void)?
        var task: Task<Void, Never>?
    }

    private let request: RequestData
    private let state: Mutex<State>

    private init(
        request: RequestData, onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) {
        self.request = request
        self.state = Mutex(State(onSuccess: onSuccess, onError: onError))
    }

    /// Starts `operation` in a task and reports its outcome through the callbacks.
    static func start(
        request: RequestData, onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void,
        operation: @escaping @Sendable () async throws(NetworkError) -> NetworkResponse
    ) -> ReplayCall {
        let call = ReplayCall(request: request, onSuccess: onSuccess, onError: onError)
        let task = Task {
            do throws(NetworkError) {
                call.finish(.success(try await operation()))
            } catch {
                var located = error
                if located.request == nil { located.request = request }
                call.finish(.failure(located))
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
    func cancel() {
        let task = state.withLock { $0.task }
        task?.cancel()
        finish(
            .failure(NetworkError(code: .cancelled, message: "The request was cancelled.", request: request)))
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
