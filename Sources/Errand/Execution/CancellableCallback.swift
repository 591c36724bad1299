import ErrandSync

/// Bridges a callback operation to async/await: the task's cancellation cancels the operation.
///
/// An operation that completes before `start` returns (a cache hit, a stub, a refused request)
/// is returned without suspending; only one still running waits on a continuation. The value is
/// moved, never copied, from the operation to the caller: a decoded value can hold dozens of
/// references, and each copy retains and releases every one. It travels through a relay that is
/// not generic and never names `Result<Value, …>`: this code is not specialised for the caller's
/// value, and each generic type it named would cost a lookup in the runtime on every request.
///
/// - Parameters:
///   - start: Starts the operation, which must end it exactly once through the relay it is
///     given (``ResultRelay/succeed(with:)`` or ``ResultRelay/fail(with:)``), and returns its handle.
///   - onCancelledBeforeStart: The error for a task that was cancelled before the operation started.
func withCancellableCallback<Value: Sendable>(
    _ start: (ResultRelay) -> any Cancellable,
    onCancelledBeforeStart: () -> NetworkError
) async throws(NetworkError) -> Value {
    if Task.isCancelled { throw onCancelledBeforeStart() }
    let relay = ResultRelay(holding: Value.self)
    let operation = start(relay)
    if !relay.takeEarly() {
        await withTaskCancellationHandler {
            // Unchecked, as the checked form costs an allocation on every request.
            await withUnsafeContinuation { relay.wait(with: $0) }
        } onCancel: {
            // Runs at once when the task was cancelled while `start` ran.
            operation.cancel()
        }
    }
    return try relay.take(Value.self)
}

/// Carries the one result of an operation to the task waiting for it, whichever of the two
/// comes first, and lets only the first result in.
///
/// The phase is kept behind a lock rather than in an atomic word: the thread sanitizer on Linux
/// reported the continuation's memory as raced between its resumer and the next call when only
/// an atomic ordered them. The value and the error are written only by the writer that claimed
/// the relay, and read only after the phase said they are there.
final class ResultRelay: @unchecked Sendable {
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
    /// Room for one value of the type the relay was made for.
    private let value: UnsafeMutableRawPointer
    /// The failure, when the result is one; else the value is in `value`.
    private var error: NetworkError?

    /// A relay for a value of `type`.
    init<Value>(holding type: Value.Type) {
        value = .allocate(byteCount: MemoryLayout<Value>.size, alignment: MemoryLayout<Value>.alignment)
    }

    // The value itself has been moved out by `take`, which every bridged call ends with.
    deinit {
        value.deallocate()
    }

    /// Ends the operation with `result`, unless it has ended already.
    ///
    /// `Value` must be the type the relay was made for; every caller is a closure given to
    /// `withCancellableCallback`, whose return type names it. A typed wrapper would say so to the
    /// compiler, but the closures that capture it then cost an allocation more per request.
    func succeed<Value>(with result: consuming Value) {
        guard claim() else { return }
        value.initializeMemory(as: Value.self, to: result)
        publish()
    }

    /// Ends the operation with `failure`, unless it has ended already.
    func fail(with failure: NetworkError) {
        guard claim() else { return }
        error = failure
        publish()
    }

    /// Moves the result out, once it is there: returns the value or throws the error. `Value`
    /// must be the type the relay was made for.
    func take<Value>(_ type: Value.Type) throws(NetworkError) -> Value {
        if let error { throw error }
        return value.assumingMemoryBound(to: Value.self).move()
    }

    /// Takes the right to write the result: `true` for the first caller only.
    private func claim() -> Bool {
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
    private func publish() {
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

    /// Whether the result is written already; from then on it is the caller's to take.
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
