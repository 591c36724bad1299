import Errand

/// An injected clock read as the time since a fixed origin, so a policy can keep instants as
/// plain `Duration`s whatever the clock's `Instant` type is.
struct ElapsedClock: Sendable {
    /// The time since the origin.
    let elapsed: @Sendable () -> Duration
    /// Sleeps until the given time since the origin (at most ``Swift/Duration/longest``); throws
    /// when the task is cancelled.
    let sleepUntil: @Sendable (Duration) async throws -> Void

    /// Reads `clock`, starting now.
    init<C: Clock<Duration>>(_ clock: C) {
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        sleepUntil = { offset in
            try await clock.sleep(until: origin.advanced(by: offset.clampedToLongest), tolerance: nil)
        }
    }
}
