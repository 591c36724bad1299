import ErrandSync

/// Bridges a callback operation to async/await: the task's cancellation cancels the operation.
///
/// - Parameters:
///   - start: Starts the operation, which must call `complete` exactly once, and returns its handle.
///   - onCancelledBeforeStart: The error for a task that was cancelled before the operation started.
func withCancellableCallback<Value: Sendable>(
    _ start: (@escaping @Sendable (Result<Value, NetworkError>) -> Void) -> any Cancellable,
    onCancelledBeforeStart: () -> NetworkError
) async throws(NetworkError) -> Value {
    if Task.isCancelled { throw onCancelledBeforeStart() }
    let handle = CancellationHandle()
    let result = await withTaskCancellationHandler {
        await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Value, NetworkError>, Never>) in
            handle.attach(start { continuation.resume(returning: $0) })
        }
    } onCancel: {
        handle.cancel()
    }
    return try result.get()
}

/// Holds the handle of an operation that a task's cancellation may reach before it exists.
final class CancellationHandle: Sendable {
    private enum State {
        case waiting
        case running(any Cancellable)
        case cancelled
    }

    private let state = Locked(State.waiting)

    /// Records the handle; cancels it at once if cancellation came first.
    func attach(_ cancellable: any Cancellable) {
        let cancelNow = state.withLock { state in
            if case .cancelled = state { return true }
            state = .running(cancellable)
            return false
        }
        if cancelNow { cancellable.cancel() }
    }

    /// Cancels the operation now, or as soon as it is attached.
    func cancel() {
        let running: (any Cancellable)? = state.withLock { state in
            defer { state = .cancelled }
            if case .running(let cancellable) = state { return cancellable }
            return nil
        }
        running?.cancel()
    }
}
