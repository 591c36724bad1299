import ErrandSync
import Synchronization

/// Runs `total` operations with `inFlight` of them running at any time, and times the run.
///
/// Each operation's result is a checksum of what it decoded; the run adds them up so the caller
/// can check every answer arrived whole. The first failure stops new operations and is thrown
/// once those in flight have finished.
enum InFlight {
    struct Run: Sendable {
        let elapsed: Duration
        let checksum: Int

        /// Operations per second.
        func throughput(of total: Int) -> Double {
            Double(total) / elapsed.seconds
        }
    }

    /// A callback operation: starts, and calls `done` exactly once from any thread.
    typealias CallbackOperation =
        @Sendable (_ done: @escaping @Sendable (Result<Int, any Error>) -> Void) -> Void

    /// Keeps `inFlight` callback operations going until `total` have completed.
    static func run(total: Int, inFlight: Int, operation: @escaping CallbackOperation) async throws -> Run {
        precondition(total > 0 && inFlight > 0)
        let run = CallbackRun(total: total, operation: operation)
        return try await withCheckedThrowingContinuation { continuation in
            run.start(inFlight: min(inFlight, total), continuation: continuation)
        }
    }

    /// Keeps `inFlight` tasks each awaiting operations one after another until `total` have completed.
    static func run(
        total: Int, inFlight: Int, operation: @escaping @Sendable () async throws -> Int
    ) async throws -> Run {
        precondition(total > 0 && inFlight > 0)
        let tickets = Tickets(total)
        let clock = ContinuousClock()
        let start = clock.now
        let checksum = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<min(inFlight, total) {
                group.addTask {
                    var sum = 0
                    while tickets.take() { sum &+= try await operation() }
                    return sum
                }
            }
            var sum = 0
            for try await part in group { sum &+= part }
            return sum
        }
        return Run(elapsed: start.duration(to: clock.now), checksum: checksum)
    }
}

/// A fixed number of tickets that tasks take until none are left.
private final class Tickets: Sendable {
    private let left: Atomic<Int>

    init(_ count: Int) {
        left = Atomic(count)
    }

    func take() -> Bool {
        left.subtract(1, ordering: .relaxed).oldValue > 0
    }
}

/// The state of one callback run; every operation's completion goes through its lock.
private final class CallbackRun: Sendable {
    private struct State {
        var started = 0
        var completed = 0
        var checksum = 0
        var failure: (any Error)?
        var startInstant: ContinuousClock.Instant?
        var continuation: CheckedContinuation<InFlight.Run, any Error>?
    }

    /// The continuation to resume once the last operation is done, and with what.
    private typealias Finish = (CheckedContinuation<InFlight.Run, any Error>, Result<InFlight.Run, any Error>)

    private let total: Int
    private let operation: InFlight.CallbackOperation
    private let state = Locked(State())

    init(total: Int, operation: @escaping InFlight.CallbackOperation) {
        self.total = total
        self.operation = operation
    }

    func start(inFlight: Int, continuation: CheckedContinuation<InFlight.Run, any Error>) {
        state.withLock { state in
            state.continuation = continuation
            state.started = inFlight
            state.startInstant = ContinuousClock.now
        }
        for _ in 0..<inFlight { launch() }
    }

    private func launch() {
        operation { [self] result in completed(result) }
    }

    private func completed(_ result: Result<Int, any Error>) {
        let end = ContinuousClock.now
        let (launchAnother, finished) = state.withLock { state -> (Bool, Finish?) in
            state.completed += 1
            switch result {
            case .success(let checksum): state.checksum &+= checksum
            case .failure(let error): state.failure = state.failure ?? error
            }
            if state.failure == nil, state.started < total {
                state.started += 1
                return (true, nil)
            }
            guard state.completed == state.started, let continuation = state.continuation else {
                return (false, nil)
            }
            state.continuation = nil
            if let failure = state.failure { return (false, (continuation, .failure(failure))) }
            let elapsed = (state.startInstant ?? end).duration(to: end)
            return (false, (continuation, .success(InFlight.Run(elapsed: elapsed, checksum: state.checksum))))
        }
        if launchAnother { launch() }
        if let (continuation, outcome) = finished { continuation.resume(with: outcome) }
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
