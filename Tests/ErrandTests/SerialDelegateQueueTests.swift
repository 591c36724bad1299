#if canImport(FoundationNetworking)
    import Dispatch
    import ErrandSync
    import Foundation
    import Testing

    @testable import Errand

    /// The delegate queue of a dispatcher's own session on Linux: events run in order, and the
    /// thread that adds them waits while too many are waiting, but never for long.
    @Suite struct SerialDelegateQueueTests {
        @Test func runsEventsInTheOrderAdded() async {
            // Given a queue
            let queue = SerialDelegateQueue()
            let ran = Locked<[Int]>([])

            // When events are added from one thread
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                for index in 0..<1_000 {
                    queue.addOperation { ran.withLock { $0.append(index) } }
                }
                queue.addOperation { done.resume() }
            }

            // Then they ran in that order
            #expect(ran.withLock { $0 } == Array(0..<1_000))
        }

        @Test func theAddingThreadWaitsWhileTooManyEventsWait() async {
            // Given a queue that lets 4 events wait, whose delegate is held until 4 are added
            let queue = SerialDelegateQueue(highWater: 4, lowWater: 1, patience: .seconds(120))
            let gate = DispatchSemaphore(value: 0)
            let fourAdded = DispatchSemaphore(value: 0)
            let ran = Locked(0)
            let added = 200

            // When a thread adds many more
            let backlogs = await withCheckedContinuation { (done: CheckedContinuation<[Int], Never>) in
                Thread.detachNewThread {
                    var backlogs: [Int] = []
                    queue.addOperation { gate.wait() }
                    for index in 1...added {
                        queue.addOperation { ran.withLock { $0 += 1 } }
                        // Events added and not yet run, seen when the add returns.
                        backlogs.append(index - ran.withLock { $0 })
                        if index == 3 { fourAdded.signal() }
                    }
                    done.resume(returning: backlogs)
                }
                fourAdded.wait()
                gate.signal()
            }

            // Then no add returned while more than 4 events were waiting
            #expect(backlogs.count == added)
            #expect(backlogs.allSatisfy { $0 <= 4 }, "\(backlogs.filter { $0 > 4 })")
        }

        @Test(.timeLimit(.minutes(1))) func aDelegateThatWaitsForTheAddingThreadDoesNotDeadlockIt() async {
            // Given a queue whose delegate, like one starting a task from a callback, waits for
            // the thread that adds events, while more events wait than the queue lets wait
            let queue = SerialDelegateQueue(highWater: 2, lowWater: 0, patience: .milliseconds(10))
            let adderDone = DispatchSemaphore(value: 0)
            let ran = Locked(0)

            // When that thread adds them
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                Thread.detachNewThread {
                    queue.addOperation { adderDone.wait() }
                    for _ in 0..<10 {
                        queue.addOperation { ran.withLock { $0 += 1 } }
                    }
                    adderDone.signal()
                    queue.addOperation { done.resume() }
                }
            }

            // Then it stopped waiting and every event ran
            #expect(ran.withLock { $0 } == 10)
        }

        @Test(.timeLimit(.minutes(1))) func anEventAddedFromTheDelegateNeverWaits() async {
            // Given a queue that lets one event wait
            let queue = SerialDelegateQueue(highWater: 1, lowWater: 0, patience: .seconds(120))
            let ran = Locked(0)

            // When an event adds many more from the delegate itself
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                queue.addOperation {
                    for _ in 0..<10 {
                        queue.addOperation { ran.withLock { $0 += 1 } }
                    }
                    queue.addOperation { done.resume() }
                }
            }

            // Then it went on at once (a wait would last the whole minute) and all ran
            #expect(ran.withLock { $0 } == 10)
        }
    }
#endif
