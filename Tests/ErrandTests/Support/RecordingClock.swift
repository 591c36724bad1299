import Synchronization

/// A clock whose sleeps return at once and are recorded, for live tests that must not wait.
final class RecordingClock: Clock {
    typealias Instant = ManualClock.Instant

    private let state = Mutex((now: Instant(offset: .zero), sleeps: [Duration]()))

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }

    /// Every duration slept, in order.
    var sleeps: [Duration] { state.withLock { $0.sleeps } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        state.withLock { state in
            state.sleeps.append(state.now.duration(to: deadline))
            state.now = max(state.now, deadline)
        }
        try Task.checkCancellation()
    }
}
