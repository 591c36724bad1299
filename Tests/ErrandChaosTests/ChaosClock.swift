import ErrandSync

/// A manual clock that tells the scenario's driver about every sleeper that comes or goes, so
/// the driver waits for the chain to park instead of polling it.
final class ChaosClock: Clock {
    /// A point on the manual time line.
    struct Instant: InstantProtocol {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var nextID = 0
    }

    private let state = Locked(State())
    private let signal: ChaosSignal

    init(signal: ChaosSignal) {
        self.signal = signal
    }

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }

    /// How many sleeps wait for time to pass.
    var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = state.withLock { state in
                    if deadline <= state.now || Task.isCancelled { return true }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return false
                }
                if resumeNow {
                    continuation.resume()
                } else {
                    signal.poke()
                }
            }
        } onCancel: {
            let cancelled = state.withLock { state in
                state.sleepers.firstIndex { $0.id == id }.map { state.sleepers.remove(at: $0) }
            }
            cancelled?.continuation.resume(throwing: CancellationError())
            signal.poke()
        }
        try Task.checkCancellation()
    }

    /// Moves time forward and wakes the sleeps whose deadline has come.
    func advance(by duration: Duration) {
        let due = state.withLock { state in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
        signal.poke()
    }
}

/// Wakes the scenario's driver whenever something it watches changes, and notices when
/// nothing has changed for a long time (a hang).
final class ChaosSignal: Sendable {
    private struct State {
        var generation = 0
        var idleTicks = 0
        var hung = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// How many one-second ticks without a change count as a hang.
    static let hangTicks = 60

    private let state = Locked(State())

    /// Changes so far.
    var generation: Int { state.withLock { $0.generation } }
    /// Whether nothing changed for ``hangTicks`` ticks while the driver waited.
    var hung: Bool { state.withLock { $0.hung } }

    /// Notes a change and wakes the driver.
    func poke() {
        let waiters = state.withLock { state in
            state.generation += 1
            state.idleTicks = 0
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Counts a second without change; after ``hangTicks`` of them, marks a hang and wakes the driver.
    func tick() {
        let waiters = state.withLock { state in
            guard !state.waiters.isEmpty else {
                state.idleTicks = 0
                return [CheckedContinuation<Void, Never>]()
            }
            state.idleTicks += 1
            guard state.idleTicks >= Self.hangTicks else { return [] }
            state.hung = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits until a change after `generation` (at once if there was one), or a hang.
    func wait(past generation: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                if state.generation != generation || state.hung { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Runs `body` with a watchdog that ticks this signal every second (a loose hang guard).
    func watching<Value>(_ body: () async throws -> Value) async rethrows -> Value {
        let watchdog = Task { [self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                tick()
            }
        }
        defer { watchdog.cancel() }
        return try await body()
    }
}
