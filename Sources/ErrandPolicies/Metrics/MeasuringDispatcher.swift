import Errand
import Foundation

/// A dispatcher that measures every request sent through the dispatcher it wraps and hands one
/// ``RequestMetric`` per request to a ``MetricsSink``. Made with
/// ``Errand/NetworkDispatcher/measuring(into:clock:now:template:)``.
///
/// The metric is recorded exactly once per request (success, failure or cancellation), just
/// before the request's own callback. Durations come from the injected clock, so tests are
/// exact; the start date from `now`. Measuring waits for nothing of its own, so it is written
/// as one measurement that starts before the request and ends with its outcome: outermost it
/// wraps the callbacks, with no task; inside other policies it runs inline in their task.
///
/// Its position in the chain decides what a metric covers: outside a retry policy, a call with
/// all its attempts and waits; inside it, each attempt (see ``RequestMetric/attempts``).
public struct MeasuringDispatcher: WrappingDispatcher, AsyncPolicy {
    /// The dispatcher that sends the measured requests.
    public let base: any NetworkDispatcher
    /// Where the metrics go.
    public let sink: any MetricsSink
    private let clock: ElapsedClock
    private let now: @Sendable () -> Date
    private let template: @Sendable (RequestData) -> String?

    /// Creates a measuring dispatcher.
    ///
    /// - Parameters:
    ///   - base: The dispatcher that sends the measured requests.
    ///   - sink: Where the metrics go.
    ///   - clock: The clock durations are measured on; inject a manual clock in tests.
    ///   - now: The wall-clock time, for each metric's start.
    ///   - template: Names the route of a request, for ``RequestMetric/template``; when it
    ///     returns `nil` the path without its query is used. By default numeric and UUID
    ///     segments read `{id}` (``RequestMetric/numericSegmentsAsID(_:)``).
    public init(
        base: any NetworkDispatcher, sink: any MetricsSink, clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = { Date() },
        template: @escaping @Sendable (RequestData) -> String? = RequestMetric.numericSegmentsAsID
    ) {
        self.base = base
        self.sink = sink
        self.clock = ElapsedClock(clock)
        self.now = now
        self.template = template
    }

    /// Sends the request through the base dispatcher and records how it went.
    @discardableResult
    public func dispatch(
        request: RequestData,
        onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        base.dispatch(
            request: request, onSuccess: onSuccess, onError: onError, observing: measurement(of: request))
    }

    /// Sends the request inline through the base dispatcher and records how it went.
    func send(_ request: RequestData) async throws(NetworkError) -> NetworkResponse {
        try await base.sendInline(request, observing: measurement(of: request))
    }

    /// Starts measuring `request`, and returns what records its metric once it has ended.
    private func measurement(of request: RequestData)
        -> @Sendable (Result<NetworkResponse, NetworkError>) -> Void
    {
        // What the metric says of the request is worked out now, so the closure holds it rather
        // than the request and the whole policy: fewer references to retain on every request.
        let metric = startedMetric(for: request)
        let started = clock.elapsed()
        let (sink, clock) = (sink, clock)
        return { outcome in sink.record(Self.finished(metric, since: started, on: clock, outcome)) }
    }

    /// The metric of a request about to be sent: what it is, and when it started.
    private func startedMetric(for request: RequestData) -> RequestMetric {
        RequestMetric(
            method: request.method, path: RequestMetric.pathWithoutQuery(request.path),
            template: template(request).map(RequestMetric.withoutUserInfo), start: now(), duration: .zero,
            bytesSent: request.body?.data?.count ?? 0)
    }

    /// The metric completed with how the request ended: its response, or its failure and the
    /// response that came with it, if any.
    private static func finished(
        _ metric: RequestMetric, since started: Duration, on clock: ElapsedClock,
        _ outcome: Result<NetworkResponse, NetworkError>
    ) -> RequestMetric {
        var metric = metric
        metric.duration = clock.elapsed() - started
        switch outcome {
        case .success(let response):
            metric.servedFromCache = response.isFromCache
            metric.attempts = response.attempts
            metric.statusCode = response.statusCode
            metric.bytesReceived = response.body.count
        case .failure(let error):
            metric.errorCode = error.code
            metric.attempts = error.attempts
            metric.statusCode = error.response?.statusCode
            metric.bytesReceived = error.response?.body.count ?? 0
        }
        return metric
    }
}

extension NetworkDispatcher {
    /// This dispatcher, measuring every request into `sink`.
    ///
    /// - Parameters:
    ///   - sink: Where the metrics go, such as an ``InMemoryMetrics``.
    ///   - clock: The clock durations are measured on; inject a manual clock in tests.
    ///   - now: The wall-clock time, for each metric's start.
    ///   - template: Names the route of a request; by default numeric and UUID path segments
    ///     read `{id}`. Return `nil` to use the path without its query.
    public func measuring(
        into sink: any MetricsSink, clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = { Date() },
        template: @escaping @Sendable (RequestData) -> String? = RequestMetric.numericSegmentsAsID
    ) -> MeasuringDispatcher {
        MeasuringDispatcher(base: self, sink: sink, clock: clock, now: now, template: template)
    }
}
