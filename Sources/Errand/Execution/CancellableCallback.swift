import ErrandSync

/// Bridges a callback operation to async/await: the task's cancellation cancels the operation.
///
/// An operation that completes before `start` returns (a cache hit, a stub, a refused request)
/// is returned without suspending; only one still running waits on a continuation.
///
/// - Parameters:
///   - start: Starts the operation, which must call `complete` exactly once, and returns its handle.
///   - onCancelledBeforeStart: The error for a task that was cancelled before the operation started.
func withCancellableCallback<Value: Sendable>(
    _ start: (@escaping @Sendable (Result<Value, NetworkError>) -> Void) -> any Cancellable,
    onCancelledBeforeStart: () -> NetworkError
) async throws(NetworkError) -> Value {
    if Task.isCancelled { throw onCancelledBeforeStart() }
    let relay = ResultRelay<Value>()
    let operation = start { relay.deliver($0) }
    if let early = relay.takeEarly() { return try early.get() }
    let result = await withTaskCancellationHandler {
        // Unchecked, as the checked form costs an allocation on every request; the relay lets
        // only the first completion through, so an operation that calls back twice is harmless.
        await withUnsafeContinuation { relay.wait(with: $0) }
    } onCancel: {
        // Runs at once when the task was cancelled while `start` ran.
        operation.cancel()
    }
    return try result.get()
}

/// Carries an operation's first result to the task waiting for it, whichever comes first.
final class ResultRelay<Value: Sendable>: Sendable {
    private enum State {
        case empty
        case ready(Result<Value, NetworkError>)
        case waiting(UnsafeContinuation<Result<Value, NetworkError>, Never>)
        case done
    }

    private let state = Locked(State.empty)

    /// Hands `result` to the waiting task, or keeps it for one to come; drops any later result.
    func deliver(_ result: Result<Value, NetworkError>) {
        let waiting: UnsafeContinuation<Result<Value, NetworkError>, Never>? = state.withLock { state in
            switch state {
            case .empty:
                state = .ready(result)
                return nil
            case .waiting(let continuation):
                state = .done
                return continuation
            case .ready, .done:
                return nil
            }
        }
        waiting?.resume(returning: result)
    }

    /// The result, when it was delivered already; from then on any later one is dropped.
    func takeEarly() -> Result<Value, NetworkError>? {
        state.withLock { state in
            guard case .ready(let result) = state else { return nil }
            state = .done
            return result
        }
    }

    /// Resumes `continuation` with the result now if it came, else when it comes.
    func wait(with continuation: UnsafeContinuation<Result<Value, NetworkError>, Never>) {
        let ready: Result<Value, NetworkError>? = state.withLock { state in
            if case .ready(let result) = state {
                state = .done
                return result
            }
            state = .waiting(continuation)
            return nil
        }
        if let ready { continuation.resume(returning: ready) }
    }
}
