import ErrandSync

/// Bridges a callback operation to async/await: the task's cancellation cancels the operation.
///
/// An operation that completes before `start` returns (a cache hit, a stub, a refused request)
/// is returned without suspending; only one still running waits on a continuation. The result
/// is moved, never copied, from the operation to the caller: a decoded value can hold dozens of
/// references, and each copy retains and releases every one. It travels through a slot this
/// function allocates, and a relay that is not generic. The function and the slot are
/// inlinable, so that the caller's module specialises them for its value; the relay's
/// synchronisation stays out of line, the same code for every type.
///
/// - Parameters:
///   - start: Starts the operation, which must call the ``ResultDelivery`` it is given exactly
///     once (a later call is dropped), and returns its handle.
///   - onCancelledBeforeStart: The error for a task that was cancelled before the operation started.
@inlinable
func withCancellableCallback<Value: Sendable>(
    _ start: (ResultDelivery<Value>) -> any Cancellable,
    onCancelledBeforeStart: () -> NetworkError
) async throws(NetworkError) -> Value {
    if Task.isCancelled { throw onCancelledBeforeStart() }
    let delivery = ResultDelivery<Value>(slot: ResultSlot(), relay: ResultRelay())
    let operation = start(delivery)
    let relay = delivery.relay
    if !relay.takeEarly() {
        await withTaskCancellationHandler {
            // Unchecked, as the checked form costs an allocation on every request.
            await withUnsafeContinuation { relay.wait(with: $0) }
        } onCancel: {
            // Runs at once when the task was cancelled while `start` ran.
            operation.cancel()
        }
    }
    return try delivery.slot.take()
}

/// How an operation bridged by `withCancellableCallback` hands over its result: called like a
/// closure, `delivery(.success(value))`.
///
/// A value rather than a closure, so that the operation's own callbacks capture the slot and the
/// relay themselves: a closure around them would be one more allocation on every request.
@usableFromInline
struct ResultDelivery<Value>: Sendable {
    /// Where the result is written.
    @usableFromInline let slot: ResultSlot<Value>
    /// What says the result is there, and lets only the first in.
    @usableFromInline let relay: ResultRelay

    /// A delivery into `slot`, announced by `relay`.
    @inlinable
    init(slot: ResultSlot<Value>, relay: ResultRelay) {
        self.slot = slot
        self.relay = relay
    }

    /// Hands `result` to the waiting task, unless a result was handed over already.
    @inlinable
    func callAsFunction(_ result: consuming Result<Value, NetworkError>) {
        // Only the first result is written; a later one is dropped without touching the slot.
        guard relay.claim() else { return }
        slot.fill(with: consume result)
        relay.publish()
    }
}

/// Where the one result of an operation waits to be taken: written by whoever claimed the
/// relay, read after the relay said it is there.
@usableFromInline
struct ResultSlot<Value>: @unchecked Sendable {
    /// Room for the result, allocated by `init` and freed by ``take()``.
    @usableFromInline let pointer: UnsafeMutablePointer<Result<Value, NetworkError>>

    /// An empty slot.
    @inlinable
    init() {
        pointer = .allocate(capacity: 1)
    }

    /// Moves `result` in.
    @inlinable
    func fill(with result: consuming Result<Value, NetworkError>) {
        pointer.initialize(to: consume result)
    }

    /// Moves the result out, frees the slot, and returns the value or throws the error.
    @inlinable
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
///
/// A struct around its lock, whose storage is the one object a relay allocates: copies share it.
@usableFromInline
struct ResultRelay: Sendable {
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

    /// A relay with no result and no waiting task.
    @usableFromInline
    init() {}

    /// Takes the right to write the result: `true` for the first caller only.
    @usableFromInline
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
    @usableFromInline
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
    @usableFromInline
    func takeEarly() -> Bool {
        phase.withLock { phase in
            guard case .ready = phase else { return false }
            phase = .done
            return true
        }
    }

    /// Resumes `continuation` now if the result is written, else once it is.
    @usableFromInline
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
