import Synchronization

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
/// One atomic word rather than a lock: a lock costs an allocation and a mutex set up and torn
/// down on every request. The continuation is written only by the waiting task, before the
/// phase that announces it is published, and read only by the writer that saw that phase; the
/// value and the error are written only by the writer that claimed the relay, and read only
/// after the phase said they are there.
final class ResultRelay: @unchecked Sendable {
    private enum Phase: Int {
        case empty
        /// A result is being written.
        case claimed
        /// A result is being written, and the task is waiting for it.
        case claimedWhileWaiting
        /// The task is waiting, and no result has been claimed yet.
        case waiting
        case ready
        case done
    }

    private let phase = Atomic<Int>(Phase.empty.rawValue)
    private var continuation: UnsafeContinuation<Void, Never>?
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
        // An acquiring load, so the result written before the task was resumed is seen.
        _ = phase.load(ordering: .acquiring)
        if let error { throw error }
        return value.assumingMemoryBound(to: Value.self).move()
    }

    /// Takes the right to write the result: `true` for the first caller only.
    private func claim() -> Bool {
        let claimed = advance { phase in
            switch phase {
            case .empty: .claimed
            case .waiting: .claimedWhileWaiting
            default: nil
            }
        }
        return claimed != nil
    }

    /// Says the claimed result is written, resuming the task if it waits.
    private func publish() {
        // Only the waiting task moves the phase on from `claimed`, to `claimedWhileWaiting`.
        let (exchanged, _) = phase.compareExchange(
            expected: Phase.claimed.rawValue, desired: Phase.ready.rawValue, ordering: .acquiringAndReleasing)
        if exchanged { return }
        phase.store(Phase.done.rawValue, ordering: .releasing)
        continuation?.resume()
    }

    /// Whether the result is written already; from then on it is the caller's to take.
    func takeEarly() -> Bool {
        phase.compareExchange(
            expected: Phase.ready.rawValue, desired: Phase.done.rawValue, ordering: .acquiring
        ).exchanged
    }

    /// Resumes `continuation` now if the result is written, else once it is.
    func wait(with continuation: UnsafeContinuation<Void, Never>) {
        self.continuation = continuation
        let reached = advance { phase in
            switch phase {
            case .ready: .done
            case .claimed: .claimedWhileWaiting
            default: .waiting
            }
        }
        if reached == .done { continuation.resume() }
    }

    /// Moves the phase on as `transition` says, atomically: the phase reached, or `nil` when
    /// `transition` leaves the phase as it is.
    private func advance(_ transition: (Phase?) -> Phase?) -> Phase? {
        var current = phase.load(ordering: .acquiring)
        while true {
            guard let next = transition(Phase(rawValue: current)) else { return nil }
            let (exchanged, found) = phase.compareExchange(
                expected: current, desired: next.rawValue, ordering: .acquiringAndReleasing)
            if exchanged { return next }
            current = found
        }
    }
}
