import ErrandSync

/// Bridges a callback operation to async/await: the task's cancellation cancels the operation.
///
/// An operation that completes before `start` returns (a cache hit, a stub, a refused request)
/// is returned without suspending; only one still running waits on a continuation. The result
/// is moved, never copied, from the operation to the caller: a decoded value can hold dozens of
/// references, and each copy retains and releases every one. It travels through a slot this
/// function allocates, and a relay that is not generic: generic types of the caller's value
/// would each cost a metadata lookup on every request, as this code is not specialised for it.
///
/// - Parameters:
///   - start: Starts the operation, which must call `complete` exactly once, and returns its handle.
///   - onCancelledBeforeStart: The error for a task that was cancelled before the operation started.
func withCancellableCallback<Value: Sendable>(
    _ start: (@escaping @Sendable (consuming Result<Value, NetworkError>) -> Void) -> any Cancellable,
    onCancelledBeforeStart: () -> NetworkError
) async throws(NetworkError) -> Value {
    if Task.isCancelled { throw onCancelledBeforeStart() }
    let slot = ResultSlot<Value>()
    let relay = ResultRelay()
    let operation = start { result in
        // Only the first result is written; a later one is dropped without touching the slot.
        guard relay.claim() else { return }
        slot.fill(with: consume result)
        relay.publish()
    }
    if !relay.takeEarly() {
        await withTaskCancellationHandler {
            // Unchecked, as the checked form costs an allocation on every request.
            await withUnsafeContinuation { relay.wait(with: $0) }
        } onCancel: {
            // Runs at once when the task was cancelled while `start` ran.
            operation.cancel()
        }
    }
    return try slot.take()
}

/// Where the one result of an operation waits to be taken: written by whoever claimed the
/// relay, read after the relay said it is there.
struct ResultSlot<Value>: @unchecked Sendable {
    private let pointer = UnsafeMutablePointer<Result<Value, NetworkError>>.allocate(capacity: 1)

    /// Moves `result` in.
    func fill(with result: consuming Result<Value, NetworkError>) {
        pointer.initialize(to: consume result)
    }

    /// Moves the result out, frees the slot, and returns the value or throws the error.
    func take() throws(NetworkError) -> Value {
        let result = pointer.move()
        pointer.deallocate()
        switch consume result {
        case .success(let value): return value
        case .failure(let error): throw error
        }
    }
}

/// Tells the task waiting for an operation that its result is in the slot, whichever of the two
/// comes first, and lets only the first result in.
final class ResultRelay: Sendable {
    private enum Phase {
        case empty
        /// A result is being written.
        case claimed
        /// A result is being written, and the task is waiting for it.
        case claimedWhileWaiting(UnsafeContinuation<Void, Never>)
        case waiting(UnsafeContinuation<Void, Never>)
        case ready
        case done
    }

    private let phase = Locked(Phase.empty)

    /// Takes the right to write the result: `true` for the first caller only.
    func claim() -> Bool {
        phase.withLock { phase in
            switch phase {
            case .empty:
                phase = .claimed
                return true
            case .waiting(let continuation):
                phase = .claimedWhileWaiting(continuation)
                return true
            case .claimed, .claimedWhileWaiting, .ready, .done:
                return false
            }
        }
    }

    /// Says the claimed result is written, resuming the task if it waits.
    func publish() {
        let waiting: UnsafeContinuation<Void, Never>? = phase.withLock { phase in
            if case .claimedWhileWaiting(let continuation) = phase {
                phase = .done
                return continuation
            }
            phase = .ready
            return nil
        }
        waiting?.resume()
    }

    /// Whether the result is written already; from then on the slot is the caller's.
    func takeEarly() -> Bool {
        phase.withLock { phase in
            guard case .ready = phase else { return false }
            phase = .done
            return true
        }
    }

    /// Resumes `continuation` now if the result is written, else once it is.
    func wait(with continuation: UnsafeContinuation<Void, Never>) {
        let resumeNow = phase.withLock { phase -> Bool in
            switch phase {
            case .ready:
                phase = .done
                return true
            case .claimed:
                phase = .claimedWhileWaiting(continuation)
                return false
            default:
                phase = .waiting(continuation)
                return false
            }
        }
        if resumeNow { continuation.resume() }
    }
}
