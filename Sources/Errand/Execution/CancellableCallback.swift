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
        // Unchecked, as the checked form costs an allocation on every request; the handle lets
        // only the first completion through, so an operation that calls back twice is harmless.
        await withUnsafeContinuation {
            (continuation: UnsafeContinuation<Result<Value, NetworkError>, Never>) in
            handle.attach(
                start { result in
                    if handle.claimCompletion() { continuation.resume(returning: result) }
                })
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

    private struct Guarded {
        var state = State.waiting
        var completed = false
    }

    private let guarded = Locked(Guarded())

    /// Whether this is the operation's first completion; every later one must be dropped.
    func claimCompletion() -> Bool {
        guarded.withLock { guarded in
            defer { guarded.completed = true }
            return !guarded.completed
        }
    }

    /// Records the handle; cancels it at once if cancellation came first.
    func attach(_ cancellable: any Cancellable) {
        let cancelNow = guarded.withLock { guarded in
            if case .cancelled = guarded.state { return true }
            guarded.state = .running(cancellable)
            return false
        }
        if cancelNow { cancellable.cancel() }
    }

    /// Cancels the operation now, or as soon as it is attached.
    func cancel() {
        let running: (any Cancellable)? = guarded.withLock { guarded in
            defer { guarded.state = .cancelled }
            if case .running(let cancellable) = guarded.state { return cancellable }
            return nil
        }
        running?.cancel()
    }
}
