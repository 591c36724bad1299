import Foundation

/// A dispatcher that measures every request sent through the dispatcher it wraps and hands one
/// ``RequestMetric`` per request to a ``MetricsSink``. Made with
/// ``NetworkDispatcher/measuring(into:clock:now:template:)``.
///
/// The metric is recorded exactly once per request (success, failure or cancellation), just
/// before the request's own callback. Durations come from the injected clock, so tests are
/// exact; the start date from `now`. Measuring adds no task: outermost it wraps the callbacks,
/// inside other policies it runs inline in their task.
///
/// Its position in the chain decides what a metric covers: outside a retry policy, a call with
/// all its attempts and waits; inside it, each attempt (see ``RequestMetric/attempts``).
public struct MeasuringDispatcher: NetworkDispatcher, AsyncPolicy {
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
        let started = (date: now(), offset: clock.elapsed())
        return base.dispatch(
            request: request,
            onSuccess: { [self] response in
                record(request, .success(response), started: started)
                onSuccess(response)
            },
            onError: { [self] error in
                record(request, .failure(error), started: started)
                onError(error)
            })
    }

    /// Sends the request inline through the base dispatcher and records how it went.
    func send(_ request: RequestData) async throws(NetworkError) -> NetworkResponse {
        let started = (date: now(), offset: clock.elapsed())
        do {
            let response = try await base.sendInline(request)
            record(request, .success(response), started: started)
            return response
        } catch {
            record(request, .failure(error), started: started)
            throw error
        }
    }

    private func record(
        _ request: RequestData, _ outcome: Result<NetworkResponse, NetworkError>,
        started: (date: Date, offset: Duration)
    ) {
        let duration = clock.elapsed() - started.offset
        let response: NetworkResponse?
        var metric = RequestMetric(
            method: request.method, path: RequestMetric.pathWithoutQuery(request.path),
            template: template(request), start: started.date, duration: duration,
            bytesSent: request.body?.data?.count ?? 0)
        switch outcome {
        case .success(let answer):
            response = answer
            metric.servedFromCache = answer.isFromCache
            metric.attempts = answer.attempts
        case .failure(let error):
            response = error.response
            metric.errorCode = error.code
            metric.attempts = error.attempts
        }
        metric.statusCode = response?.statusCode
        metric.bytesReceived = response?.body.count ?? 0
        sink.record(metric)
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
