import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    /// The delegate queue of a dispatcher's own session on Linux: each delegate event runs as a
    /// block on one serial dispatch queue instead of as an `Operation`.
    ///
    /// FoundationNetworking hands every delegate event to the session's queue with
    /// `addOperation(_:)` (a block), and a delegate-driven task has three or more of them (the
    /// response, each chunk of the body, the end). A plain `OperationQueue` makes a
    /// `BlockOperation` for each and runs it through its scheduling (locks, state changes, a
    /// dispatch hop of its own). One serial queue does the hop alone and keeps the order the
    /// session relies on (response, then data in order, then completion).
    final class SerialDelegateQueue: OperationQueue, @unchecked Sendable {
        private let queue = DispatchQueue(label: "Errand.URLSessionDispatcher.delegate")

        override init() {
            super.init()
            maxConcurrentOperationCount = 1
        }

        override func addOperation(_ block: @escaping @Sendable () -> Void) {
            queue.async(execute: block)
        }
    }
#endif
