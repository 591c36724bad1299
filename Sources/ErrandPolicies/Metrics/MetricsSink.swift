import Errand

/// Where a ``MeasuringDispatcher`` sends one ``RequestMetric`` per finished request: an
/// in-memory aggregate (``InMemoryMetrics``), a bridge to StatsD, Prometheus or a log.
///
/// ``record(_:)`` is called on the thread that finished the request, before the request's own
/// callback, so keep it quick and non-blocking (aggregate under a lock, or hand off to a queue).
public protocol MetricsSink: Sendable {
    /// Takes the measurement of one finished request.
    ///
    /// - Parameter metric: What the request was, how it ended, and how long it took.
    func record(_ metric: RequestMetric)
}
