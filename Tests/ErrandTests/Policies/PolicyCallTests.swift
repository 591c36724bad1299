import Dispatch
import ErrandSync
import ErrandTestSupport
import Testing

@testable import Errand

/// The call that policies run their work in: one callback, and a cancel that stops the work.
@Suite struct PolicyCallTests {
    /// Counts what the calls of one test saw.
    private final class Tally: Sendable {
        let started = Locked(0)
        let stopped = Locked(0)
        let cancelledCallbacks = Locked(0)
        let otherCallbacks = Locked(0)
    }

    @Test func aCancelRacingTheStartOfTheWorkStopsTheWorkEveryTime() async {
        // Given calls whose work waits until it is cancelled
        let tally = Tally()
        let rounds = 2_000
        for _ in 0..<rounds {
            // When each is cancelled from another thread while its work is being started
            let call = PolicyCall.start(
                request: .get("/items"),
                onSuccess: { _ in tally.otherCallbacks.withLock { $0 += 1 } },
                onError: { error in
                    if error.code == .cancelled {
                        tally.cancelledCallbacks.withLock { $0 += 1 }
                    } else {
                        tally.otherCallbacks.withLock { $0 += 1 }
                    }
                },
                operation: { () async throws(NetworkError) in
                    tally.started.withLock { $0 += 1 }
                    await Self.waitForCancellation()
                    tally.stopped.withLock { $0 += 1 }
                    throw .cancelled(nil)
                })
            DispatchQueue.global().async { call.cancel() }
        }

        // Then every call reported `cancelled` once, and every work that started was stopped
        await waitUntil("every call ends") { tally.cancelledCallbacks.withLock { $0 } == rounds }
        #expect(tally.otherCallbacks.withLock { $0 } == 0)
        // Turns for the works still to start (a work cancelled before its task ran may still
        // start); one never cancelled would wait for ever and never be counted stopped.
        for _ in 0..<20_000 { await Task.yield() }
        await waitUntil("every started work is stopped") {
            tally.stopped.withLock { $0 } == tally.started.withLock { $0 }
        }
        #expect(tally.started.withLock { $0 } > 0)
    }

    /// Returns once the current task is cancelled, without polling.
    private static func waitForCancellation() async {
        let gate = Locked<UnsafeContinuation<Void, Never>?>(nil)
        let cancelled = Locked(false)
        await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                let resumeNow = cancelled.withLock { isCancelled in
                    if !isCancelled { gate.withLock { $0 = continuation } }
                    return isCancelled
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiting = cancelled.withLock { isCancelled in
                isCancelled = true
                return gate.withLock { gate in
                    defer { gate = nil }
                    return gate
                }
            }
            waiting?.resume()
        }
    }
}
