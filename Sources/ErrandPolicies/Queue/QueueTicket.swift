import Errand
import ErrandSync

/// The handle of a request sent through a ``QueueingDispatcher`` with callbacks: cancels it in
/// line, or once started, where it runs.
///
/// The request may be started by another thread's finishing request before ``wait(_:)`` is
/// called, and cancelled between leaving the line and its dispatcher handing back a handle; the
/// state below makes each order end in exactly one callback.
final class QueueTicket: Cancellable {
    private enum State {
        case fresh
        case waiting(UInt64)
        case running(any Cancellable)
        case cancelled
    }

    private let queue: RequestQueue
    private let state = Locked(State.fresh)

    init(queue: RequestQueue) {
        self.queue = queue
    }

    /// Records the request's place in line, unless it has been started already.
    func wait(_ id: UInt64) {
        state.withLock { state in
            if case .fresh = state { state = .waiting(id) }
        }
    }

    /// Records the handle of the started request; cancels it when a cancel came first.
    func started(_ handle: any Cancellable) {
        let cancelNow = state.withLock { state in
            if case .cancelled = state { return true }
            state = .running(handle)
            return false
        }
        if cancelNow { handle.cancel() }
    }

    /// Takes the request out of line (reporting `cancelled`), or cancels it where it runs.
    func cancel() {
        let previous = state.withLock { state in
            defer { state = .cancelled }
            return state
        }
        switch previous {
        case .waiting(let id): queue.cancel(id)
        case .running(let handle): handle.cancel()
        case .fresh, .cancelled: break
        }
    }
}
