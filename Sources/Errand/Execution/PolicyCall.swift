import ErrandSync

/// Runs a dispatcher's async work as one dispatch: exactly one callback, and a cancel that stops
/// the work and reports `cancelled` at once, whatever the work is waiting on.
///
/// The callback face of every policy written as async code (``AsyncPolicy``), and of
/// `ErrandReplay`'s waits (recording through an upstream, waiting the recorded time). The work is
/// plain async code (`try await base.sendInline(request)`, clock sleeps, token refreshes) in one
/// task; the task's cancellation reaches whatever it awaits, down to the transport's dispatch
/// through ``NetworkDispatcher/dispatch(_:)``. The cancel does not wait for the work to notice:
/// the caller hears `cancelled` from ``cancel()`` itself, and whatever the work ends with later is
/// dropped.
package final class PolicyCall: Cancellable {
    private struct State {
        var onSuccess: (@Sendable (NetworkResponse) -> Void)?
        var onError: (@Sendable (NetworkError) -> Void)?
        var task: Task<Void, Never>?
    }

    /// The request as the policy was handed it, for the `cancelled` error.
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
        // A cancel that came before the task was stored found nothing to stop: stop it now.
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
        // One step: the task and the callbacks leave the state together, so a task stored in
        // between is never dropped uncancelled.
        let taken = takeState()
        taken.task?.cancel()
        taken.onError?(.cancelled(request))
    }

    /// Ends the call with `result`, unless it has ended already.
    private func finish(_ result: Result<NetworkResponse, NetworkError>) {
        let taken = takeState()
        guard let onSuccess = taken.onSuccess, let onError = taken.onError else { return }
        switch result {
        case .success(let response): onSuccess(response)
        case .failure(let error): onError(error)
        }
    }

    /// Everything the call holds, moved out in one step; the call holds nothing from then on.
    private func takeState() -> State {
        var taken = State()
        state.withLock { swap(&$0, &taken) }
        return taken
    }
}
