import ErrandSync

/// A clock whose sleeps return at once and are recorded, for live tests that must not wait.
package final class RecordingClock: Clock {
    package typealias Instant = ManualClock.Instant

    private let state = Locked((now: Instant(offset: .zero), sleeps: [Duration]()))

    /// Creates a clock at offset zero.
    package init() {}

    package var now: Instant { state.withLock { $0.now } }
    package var minimumResolution: Duration { .zero }

    /// Every duration slept, in order.
    package var sleeps: [Duration] { state.withLock { $0.sleeps } }

    package func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        state.withLock { state in
            state.sleeps.append(state.now.duration(to: deadline))
            state.now = max(state.now, deadline)
        }
        try Task.checkCancellation()
    }
}
