import ErrandSync

/// Bridges a callback operation to async/await: the task's cancellation cancels the operation.
///
/// An operation that completes before `start` returns (a cache hit, a stub, a refused request)
/// is returned without suspending; only one still running waits on a continuation. The result
/// is moved, never copied, from the operation to the caller: a decoded value can hold dozens of
/// references, and each copy retains and releases every one.
///
/// - Parameters:
///   - start: Starts the operation, which must call `complete` exactly once, and returns its handle.
///   - onCancelledBeforeStart: The error for a task that was cancelled before the operation started.
func withCancellableCallback<Value: Sendable>(
    _ start: (@escaping @Sendable (consuming Result<Value, NetworkError>) -> Void) -> any Cancellable,
    onCancelledBeforeStart: () -> NetworkError
) async throws(NetworkError) -> Value {
    if Task.isCancelled { throw onCancelledBeforeStart() }
    let relay = ResultRelay<Value>()
    let operation = start { result in relay.deliver(consume result) }
    if let early = relay.takeEarly() { return try value(of: consume early) }
    let result = await withTaskCancellationHandler {
        // Unchecked, as the checked form costs an allocation on every request; the relay lets
        // only the first completion through, so an operation that calls back twice is harmless.
        await withUnsafeContinuation { relay.wait(with: $0) }
    } onCancel: {
        // Runs at once when the task was cancelled while `start` ran.
        operation.cancel()
    }
    return try value(of: consume result)
}

/// The value of a result, or its error thrown, moved out rather than copied as `get()` does.
private func value<Value>(of result: consuming Result<Value, NetworkError>) throws(NetworkError) -> Value {
    switch consume result {
    case .success(let value): return value
    case .failure(let error): throw error
    }
}

/// Carries an operation's first result to the task waiting for it, whichever comes first.
final class ResultRelay<Value: Sendable>: Sendable {
    private enum Phase {
        case empty
        case ready
        case waiting(UnsafeContinuation<Result<Value, NetworkError>, Never>)
        case done
    }

    /// The phase, and the result while it is `ready`: moved in and out with `swap`, since a
    /// value captured by the lock's closure could otherwise only be copied.
    private struct State {
        var phase = Phase.empty
        var result: Result<Value, NetworkError>?
    }

    private let state = Locked(State())

    /// Hands `result` to the waiting task, or keeps it for one to come; drops any later result.
    func deliver(_ result: consuming Result<Value, NetworkError>) {
        var incoming: Result<Value, NetworkError>? = consume result
        let waiting: UnsafeContinuation<Result<Value, NetworkError>, Never>? = state.withLock { state in
            switch state.phase {
            case .empty:
                state.phase = .ready
                swap(&state.result, &incoming)
                return nil
            case .waiting(let continuation):
                state.phase = .done
                return continuation
            case .ready, .done:
                incoming = nil
                return nil
            }
        }
        if let waiting, let incoming = incoming.take() { waiting.resume(returning: incoming) }
    }

    /// The result, when it was delivered already; from then on any later one is dropped.
    func takeEarly() -> Result<Value, NetworkError>? {
        var taken: Result<Value, NetworkError>?
        state.withLock { state in
            guard case .ready = state.phase else { return }
            state.phase = .done
            swap(&state.result, &taken)
        }
        return taken
    }

    /// Resumes `continuation` with the result now if it came, else when it comes.
    func wait(with continuation: UnsafeContinuation<Result<Value, NetworkError>, Never>) {
        var ready: Result<Value, NetworkError>?
        state.withLock { state in
            if case .ready = state.phase {
                state.phase = .done
                swap(&state.result, &ready)
            } else {
                state.phase = .waiting(continuation)
            }
        }
        if let ready = ready.take() { continuation.resume(returning: ready) }
    }
}
