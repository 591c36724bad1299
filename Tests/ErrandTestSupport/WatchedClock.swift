import ErrandSync
import Testing

/// The continuous clock, counting the sleeps it is asked for, so a test can wait (by yielding)
/// until a real sleep has begun, and then cancel it.
///
/// For what only a real clock shows: a continuous clock stops the program when a deadline's
/// seconds pass what an `Int64` holds, which a manual clock never does.
package final class WatchedClock: Clock {
    package typealias Instant = ContinuousClock.Instant

    private let clock = ContinuousClock()
    private let started = Locked(0)

    /// Creates the clock.
    package init() {}

    package var now: Instant { clock.now }
    package var minimumResolution: Duration { clock.minimumResolution }

    /// How many sleeps have begun.
    package var sleepCount: Int { started.withLock { $0 } }

    package func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        started.withLock { $0 += 1 }
        try await clock.sleep(until: deadline, tolerance: tolerance)
    }

    /// Waits (by yielding, not by sleeping) until `count` sleeps have begun.
    package func waitForSleeps(_ count: Int = 1, sourceLocation: SourceLocation = #_sourceLocation) async {
        await waitUntil("\(count) sleeps", sourceLocation: sourceLocation) { sleepCount >= count }
    }
}
