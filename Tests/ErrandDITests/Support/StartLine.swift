import Dispatch
import ErrandSync

/// Holds threads until a given number have arrived, so their work really overlaps.
///
/// Waits are bounded, so a test fails instead of hanging when a runner never arrives. A runner
/// that arrives after the line has opened passes at once.
final class StartLine: Sendable {
    /// How many runners open the line.
    private let runners: Int

    /// How many have arrived so far.
    private let arrived = Locked(0)

    /// Signalled once for each runner held, when the last one arrives.
    private let open = DispatchSemaphore(value: 0)

    /// Creates a line for `runners` runners.
    init(runners: Int) {
        self.runners = runners
    }

    /// Arrives at the line and waits for the others, ten seconds at most.
    ///
    /// - Returns: `false` if the others did not all arrive in time.
    @discardableResult
    func arrive() -> Bool {
        let position = arrived.withLock { count in
            count += 1
            return count
        }
        if position == runners {
            for _ in 1..<runners {
                open.signal()
            }
        }
        if position >= runners {
            return true
        }
        return open.wait(timeout: .now() + 10) == .success
    }
}
