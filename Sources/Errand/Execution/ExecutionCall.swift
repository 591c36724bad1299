import ErrandSync

/// One execution in flight: makes sure it ends exactly once, whichever of the dispatcher's
/// answer and a cancel comes first.
///
/// The guard is not generic on purpose. The decoded value never passes through it: whoever holds
/// a value asks ``claim()`` for the right to deliver it, and only the first caller gets it. So a
/// request pays no generic metadata lookups for its guard, and a cancel that wins while the body
/// is still being decoded ends the call with `cancelled` while the value, once decoded, is dropped.
final class ExecutionCall: Cancellable {
    private struct State {
        /// `nil` once the call has ended, so nothing the caller's closures hold outlives it
        /// (a view model keeping the handle and captured by its own callback makes no cycle).
        var onError: (@Sendable (NetworkError) -> Void)?
        /// `true` until `dispatch` has returned: an answer seen then came on the caller's own thread.
        var isDispatching = true
        var handle: (any Cancellable)?

        var isFinished: Bool { onError == nil }
    }

    /// The request as dispatched.
    let request: RequestData
    private let state: Locked<State>

    /// Creates the guard of a call that reports failures, its cancel included, to `onError`.
    init(request: RequestData, onError: @escaping @Sendable (NetworkError) -> Void) {
        self.request = request
        self.state = Locked(State(onError: onError))
    }

    /// Notes that `dispatch` returned, and keeps its handle for ``cancel()`` unless already finished.
    func attach(_ handle: any Cancellable) {
        state.withLock { state in
            state.isDispatching = false
            if !state.isFinished { state.handle = handle }
        }
    }

    /// Whether the dispatcher answered after `dispatch` returned, on a thread of its own (a
    /// transport's delegate queue, a clock), rather than while the caller was still in `dispatch`.
    var isAnsweredLater: Bool {
        state.withLock { !$0.isDispatching }
    }

    /// Whether the call has ended, by an answer or by a cancel.
    var isFinished: Bool {
        state.withLock { $0.isFinished }
    }

    /// Takes the right to end the call: `true` for the first caller only, who must then deliver.
    func claim() -> Bool {
        // The callback goes out of the lock, as in `finish()`, and with no copy of the pair.
        let taken = state.withLock { state -> (@Sendable (NetworkError) -> Void)? in
            defer {
                state.onError = nil
                state.handle = nil
            }
            return state.onError
        }
        return taken != nil
    }

    /// Ends the call with `error`, unless it has already ended.
    func fail(_ error: NetworkError) {
        finish()?.onError(error)
    }

    /// Cancels the dispatch and ends with `cancelled` now, without waiting for the dispatcher.
    func cancel() {
        guard let (onError, handle) = finish() else { return }
        handle?.cancel()
        onError(.cancelled(request))
    }

    /// Ends the call, the first time only: what it held, or `nil` when it had already ended.
    private func finish() -> (onError: @Sendable (NetworkError) -> Void, handle: (any Cancellable)?)? {
        state.withLock { state in
            guard let onError = state.onError else { return nil }
            defer {
                state.onError = nil
                state.handle = nil
            }
            return (onError, state.handle)
        }
    }
}
