import ErrandSync

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
