import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Wall time on `ContinuousClock` and this process's CPU time (all threads), from one start.
///
/// CPU time per operation is the cost of the client's own work; other processes competing for
/// the cores stretch wall time but leave it nearly untouched.
struct Stopwatch {
    private let clock = ContinuousClock()
    private let wallStart: ContinuousClock.Instant
    private let cpuStart: Double

    init() {
        wallStart = clock.now
        cpuStart = Self.processCPUSeconds()
    }

    /// The wall time so far.
    var elapsed: Duration { wallStart.duration(to: clock.now) }

    /// The process's CPU time so far, in µs per operation.
    func cpuMicroseconds(per operations: Int) -> Double {
        (Self.processCPUSeconds() - cpuStart) * 1e6 / Double(operations)
    }

    /// User plus system time of every thread of this process, in seconds.
    static func processCPUSeconds() -> Double {
        var time = timespec()
        guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time) == 0 else { return .nan }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// One measurement of a contender: its figure, and the CPU time it took per operation.
struct Sample: Sendable {
    /// The figure in the comparison's metric.
    let value: Double
    /// This process's CPU time per operation, in µs, when the sample measures it.
    var cpuPerOperation: Double?
}
