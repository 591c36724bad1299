import Foundation

#if canImport(FoundationNetworking)
    /// The delegate queue, on Linux, of the session of a dispatcher's delegate-driven tasks (see
    /// ``TrackedSession``): it runs each event at once, on the session's own thread, where
    /// FoundationNetworking raised it.
    ///
    /// A hop per event (the response, each chunk of the body, the end) costs a thread wake-up
    /// each when requests are few, and lets chunks pile up as copies when the delegate falls
    /// behind. ``TransferDelegate`` keeps the events' work on that thread to counting (no lock
    /// FoundationNetworking holds, no call back into the session) and sends what can reach the
    /// caller's code through its own serial queue, so the caller can start and cancel tasks from
    /// a callback. Only that delegate may be given this queue.
    ///
    /// Kept for a measured cost, not for behaviour: the standard form is a serial
    /// `OperationQueue`, one hop per event. See `Benchmarks/README.md`, "Why some code is shaped
    /// as it is".
    final class InlineDelegateQueue: OperationQueue, @unchecked Sendable {
        override func addOperation(_ block: @escaping @Sendable () -> Void) {
            block()
        }
    }
#endif
