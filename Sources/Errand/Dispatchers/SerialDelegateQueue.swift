import Dispatch
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    /// Where ``TransferDelegate`` runs, on Linux, what its events leave to do that can reach the
    /// caller's code: each request's outcome, a failure at the size limit, progress, challenges.
    /// Each runs as a block on one serial dispatch queue, in the order added, off the session's
    /// thread (see ``InlineDelegateQueue``); the session waits when that work falls far behind.
    ///
    /// One serial dispatch queue rather than an `OperationQueue`, which makes a `BlockOperation`
    /// for each block and runs it through its scheduling (locks, state changes, a dispatch hop
    /// of its own): the queue does the hop alone and keeps the order. That choice is for cost
    /// alone, a serial `OperationQueue` being the standard form: see `Benchmarks/README.md`,
    /// "Why some code is shaped as it is".
    ///
    /// The session's thread adds the work and never waits for it; work that falls far behind
    /// would pile up without bound. So once ``highWater`` blocks wait, the thread that adds one
    /// (the session's, the one reading the socket) waits until they are down to ``lowWater``,
    /// which stops curl reading and lets TCP slow the server down.
    ///
    /// The wait is never long: work that calls into the session (starting a task from a
    /// callback) waits for that same thread, so after ``patience`` the session stops waiting
    /// until the work has caught up.
    final class SerialDelegateQueue: OperationQueue, @unchecked Sendable {
        /// Blocks waiting beyond which the adding thread waits: by default 256.
        let highWater: Int
        /// Blocks waiting at which a waiting thread goes on.
        let lowWater: Int
        /// The longest a session waits for the delegate before it stops waiting.
        let patience: DispatchTimeInterval

        private let queue = DispatchQueue(label: "Errand.URLSessionDispatcher.delegate")
        private let onQueue = DispatchSpecificKey<Bool>()
        /// Events added and not yet run.
        private let waitingEvents = Atomic<Int>(0)
        /// Whether a session thread waits for ``room`` to be signalled.
        private let sessionWaits = Atomic<Bool>(false)
        /// Whether the last wait ran out of patience: no waiting until the delegate catches up.
        private let gaveUp = Atomic<Bool>(false)
        private let room = DispatchSemaphore(value: 0)

        init(highWater: Int = 256, lowWater: Int = 64, patience: DispatchTimeInterval = .milliseconds(100)) {
            self.highWater = highWater
            self.lowWater = min(lowWater, highWater)
            self.patience = patience
            super.init()
            maxConcurrentOperationCount = 1
            queue.setSpecific(key: onQueue, value: true)
        }

        override func addOperation(_ block: @escaping @Sendable () -> Void) {
            let waiting = waitingEvents.wrappingAdd(1, ordering: .relaxed).newValue
            queue.async { [self] in
                block()
                finished()
            }
            if waiting > highWater, !gaveUp.load(ordering: .relaxed),
                DispatchQueue.getSpecific(key: onQueue) == nil
            {
                waitForTheDelegate()
            }
        }

        /// Counts an event run; wakes a waiting session once the delegate is down to ``lowWater``.
        private func finished() {
            // Sequentially consistent, as in `waitForTheDelegate()`: of this count and the
            // session's flag, one side sees the other's write, so no wake-up is lost.
            let waiting = waitingEvents.wrappingSubtract(1, ordering: .sequentiallyConsistent).newValue
            guard waiting <= lowWater else { return }
            if sessionWaits.load(ordering: .sequentiallyConsistent),
                sessionWaits.exchange(false, ordering: .sequentiallyConsistent)
            {
                room.signal()
            }
            if gaveUp.load(ordering: .relaxed) { gaveUp.store(false, ordering: .relaxed) }
        }

        /// Waits until the delegate is down to ``lowWater``, or ``patience`` has passed.
        private func waitForTheDelegate() {
            sessionWaits.store(true, ordering: .sequentiallyConsistent)
            // The delegate may have caught up before the flag was up, and will not signal.
            if waitingEvents.load(ordering: .sequentiallyConsistent) <= lowWater,
                sessionWaits.exchange(false, ordering: .sequentiallyConsistent)
            {
                return
            }
            guard room.wait(timeout: .now() + patience) == .timedOut else { return }
            if sessionWaits.exchange(false, ordering: .sequentiallyConsistent) {
                gaveUp.store(true, ordering: .relaxed)
            } else {
                // The delegate took the flag just now: its signal is on the way.
                room.wait()
            }
        }
    }
#endif
