import Errand
import ErrandSync

/// A ``MetricsSink`` that keeps running totals and the latencies of the most recent requests,
/// cheap enough to leave on in production.
///
/// Counts, failures and bytes are totals since creation (or ``reset()``). Latency percentiles
/// are taken over a window of the most recent requests (1,024 by default), kept in a ring
/// buffer, so memory stays fixed however many requests pass; recording is one lock and a few
/// additions. Percentiles use the nearest-rank method: the smallest recorded latency that at
/// least `p` percent of the window are at or below (rank ⌈p/100 × n⌉ in sorted order), so every
/// answer is a latency that was actually seen. Thread-safe.
public final class InMemoryMetrics: MetricsSink {
    private struct State {
        var count = 0
        var failures = 0
        var bytesSent = 0
        var bytesReceived = 0
        var cacheHits = 0
        var window: [Duration] = []
        var next = 0
    }

    /// How many of the most recent latencies the percentiles are taken over.
    public let windowSize: Int
    private let state = Locked(State())

    /// Creates an empty aggregate.
    ///
    /// - Parameter windowSize: How many of the most recent latencies to keep for percentiles;
    ///   values below 1 count as 1.
    public init(windowSize: Int = 1_024) {
        self.windowSize = max(1, windowSize)
    }

    /// Adds one request's measurement.
    ///
    /// - Parameter metric: The measurement.
    public func record(_ metric: RequestMetric) {
        state.withLock { state in
            state.count += 1
            if metric.isFailure { state.failures += 1 }
            state.bytesSent = state.bytesSent.addingSaturated(metric.bytesSent)
            state.bytesReceived = state.bytesReceived.addingSaturated(metric.bytesReceived)
            if metric.servedFromCache { state.cacheHits += 1 }
            if state.window.count < windowSize {
                state.window.append(metric.duration)
            } else {
                state.window[state.next] = metric.duration
            }
            state.next = (state.next + 1) % windowSize
        }
    }

    /// How many requests were recorded.
    public var count: Int { state.withLock { $0.count } }
    /// How many recorded requests failed (see ``RequestMetric/isFailure``).
    public var failureCount: Int { state.withLock { $0.failures } }
    /// The share of recorded requests that failed, from 0 to 1; 0 when none were recorded.
    public var errorRate: Double {
        state.withLock { $0.count == 0 ? 0 : Double($0.failures) / Double($0.count) }
    }
    /// The body bytes sent by all recorded requests.
    public var bytesSent: Int { state.withLock { $0.bytesSent } }
    /// The body bytes received by all recorded requests.
    public var bytesReceived: Int { state.withLock { $0.bytesReceived } }
    /// How many recorded requests a cache answered.
    public var cacheHits: Int { state.withLock { $0.cacheHits } }

    /// The latency at `percentile` over the window of recent requests, by nearest rank; `nil`
    /// when nothing was recorded.
    ///
    /// - Parameter percentile: From 0 to 100 (clamped); 0 gives the fastest, 100 the slowest.
    /// - Returns: A latency that was recorded.
    public func latency(atPercentile percentile: Double) -> Duration? {
        let window = state.withLock { $0.window }
        guard !window.isEmpty else { return nil }
        let sorted = window.sorted()
        let clamped = percentile.isNaN ? 0 : min(max(percentile, 0), 100)
        // Multiplied before dividing, so 95 of 100 is rank 95 exactly, not 95.000…1 rounded up.
        let rank = Int((clamped * Double(sorted.count) / 100).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// The median latency over the window of recent requests; `nil` when nothing was recorded.
    public var p50: Duration? { latency(atPercentile: 50) }
    /// The 95th-percentile latency over the window of recent requests.
    public var p95: Duration? { latency(atPercentile: 95) }
    /// The 99th-percentile latency over the window of recent requests.
    public var p99: Duration? { latency(atPercentile: 99) }

    /// Forgets everything recorded.
    public func reset() {
        state.withLock { $0 = State() }
    }
}
