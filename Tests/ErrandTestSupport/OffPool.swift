import Foundation

/// Runs `body`, which blocks (waits on a process or a semaphore), on a thread of its own and
/// awaits its result.
///
/// Swift Testing runs tests on the cooperative pool, which has one thread per core: two here.
/// A test that blocks a pool thread for seconds starves every other test in the run, and their
/// deadlines then fire late. Blocking work goes here instead.
package func offPool<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}
