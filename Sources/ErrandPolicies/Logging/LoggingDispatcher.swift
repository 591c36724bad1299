import Errand
import ErrandSync
import Foundation

/// A dispatcher that writes a line when each request starts and one when it ends, with its
/// secrets redacted. Made with ``Errand/NetworkDispatcher/logging(to:level:redacting:bodyLimit:clock:)``.
///
/// Each request gets a number, counted per policy, that starts both of its lines, so a
/// request's lines can be found among those of requests running at the same time:
///
/// ```
/// [errand #12] → GET /users?page=2
/// [errand #12] ← 200 GET /users?page=2 12.3 ms 411 B
/// ```
///
/// Redaction happens before a line leaves the policy: header values, query items (in the path
/// too), JSON keys at any depth, form fields and multipart fields named in the vocabulary, in
/// requests and in responses alike. At ``LogLevel/headers`` and ``LogLevel/body``, a value hidden
/// in the request is hidden wherever the lines repeat it, in any spelling of `SecretSpelling`:
/// a server that echoes the request puts it under names that are not secret.
///
/// Nothing a caller or a server sends can start a line: each entry's first line starts with its
/// `[errand #N]`, every other line with two spaces, and control characters in a path, a method,
/// a header or a body are written as escapes (`\r`, `\n`, `\u{1B}`). A request that
/// `RequestData.validate()` refuses is not sent; its one entry says so:
///
/// ```
/// [errand #13] refused GET /x: The value of header "X-Note" cannot be sent: it holds LF (\n) …
/// ```
///
/// Logging waits for nothing of its own, so it is written as one start (number, check, request
/// line) that returns the step writing the outcome's line: outermost, `dispatch` runs them around
/// the wrapped dispatcher's callbacks, with no task; inside another policy, `send` runs them
/// inline in that policy's task.
public struct LoggingDispatcher: WrappingDispatcher, AsyncPolicy {
    /// The dispatcher that sends the logged requests.
    public let base: any NetworkDispatcher
    /// Where entries go.
    public let sink: any LogSink
    /// How much is written about each request.
    public var level: LogLevel { formatter.level }

    private let formatter: LogFormatter
    /// The injected clock, read as the time since the policy was made.
    private let clock: ElapsedClock
    private let counter = Locked(0)

    /// Creates a logging dispatcher.
    ///
    /// - Parameters:
    ///   - base: The dispatcher that sends the requests.
    ///   - sink: Where entries go.
    ///   - level: How much is written about each request.
    ///   - vocabulary: The names whose values are redacted; `SecretVocabulary.none` turns
    ///     redaction off.
    ///   - bodyLimit: The most bytes of a body written at ``LogLevel/body``.
    ///   - clock: The clock durations are measured on.
    public init(
        base: any NetworkDispatcher, sink: any LogSink, level: LogLevel,
        vocabulary: SecretVocabulary = .default, bodyLimit: Int = 4096,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.base = base
        self.sink = sink
        self.formatter = LogFormatter(level: level, vocabulary: vocabulary, bodyLimit: max(0, bodyLimit))
        self.clock = ElapsedClock(clock)
    }

    /// Logs the request, sends it through the base dispatcher, logs the outcome.
    ///
    /// Works on callbacks, with no task: the request line is written before this returns, the
    /// outcome's line just before the outcome is handed on, on the thread that delivered it.
    @discardableResult
    public func dispatch(
        request: RequestData,
        onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        guard level > .none else {
            return base.dispatch(request: request, onSuccess: onSuccess, onError: onError)
        }
        let logEnd: @Sendable (Result<NetworkResponse, NetworkError>) -> Void
        do throws(NetworkError) {
            logEnd = try logStart(of: request)
        } catch {
            onError(error)
            return FinishedCancellable()
        }
        return base.dispatch(
            request: request, onSuccess: onSuccess, onError: { onError($0.attaching(request)) },
            observing: logEnd)
    }

    /// Logs the request, awaits the base dispatcher, logs the response or the error.
    func send(_ request: RequestData) async throws(NetworkError) -> NetworkResponse {
        guard level > .none else { return try await base.sendInline(request) }
        return try await base.sendInline(request, observing: logStart(of: request))
    }

    /// A request on its way: its number, when it left on the policy's clock, and what of it to
    /// hide in its answer.
    private struct Started {
        let id: Int
        let at: Duration
        let echoes: LogFormatter.Echoes
    }

    /// Numbers `request`, checks it as every transport does, writes its line, and notes the time.
    ///
    /// A request that cannot be sent gets one entry, a `.failure` that says it was refused, and
    /// never a request line: logged as sent, it would claim a request that no server saw.
    ///
    /// - Returns: What writes the outcome's line, once the request has ended.
    /// - Throws: The `invalidRequest` error of `RequestData.validate()`, once it is logged.
    private func logStart(of request: RequestData) throws(NetworkError)
        -> @Sendable (Result<NetworkResponse, NetworkError>) -> Void
    {
        let id = counter.withLock { count in
            count += 1
            return count
        }
        let echoes = formatter.echoes(of: request)
        do throws(NetworkError) {
            try request.requireValid()
        } catch {
            let text = formatter.refusalText(error, request: request, id: id, hiding: echoes)
            sink.log(LogLine(requestID: id, level: level, event: .failure, text: text))
            throw error
        }
        let text = formatter.requestText(request, id: id, hiding: echoes)
        sink.log(LogLine(requestID: id, level: level, event: .request, text: text))
        let started = Started(id: id, at: clock.elapsed(), echoes: echoes)
        return { [self] outcome in
            switch outcome {
            case .success(let response): logSuccess(response, of: request, started: started)
            case .failure(let error): logFailure(error.attaching(request), of: request, started: started)
            }
        }
    }

    private func logSuccess(_ response: NetworkResponse, of request: RequestData, started: Started) {
        let elapsed = clock.elapsed() - started.at
        let text = formatter.responseText(
            response, request: request, id: started.id, elapsed: elapsed, hiding: started.echoes)
        sink.log(LogLine(requestID: started.id, level: level, event: .response, text: text))
    }

    private func logFailure(_ error: NetworkError, of request: RequestData, started: Started) {
        let elapsed = clock.elapsed() - started.at
        let text = formatter.failureText(
            error, request: request, id: started.id, elapsed: elapsed, hiding: started.echoes)
        sink.log(LogLine(requestID: started.id, level: level, event: .failure, text: text))
    }
}

extension NetworkDispatcher {
    /// This dispatcher with its requests and their outcomes written to `sink`, secrets redacted.
    ///
    /// At ``LogLevel/none`` this dispatcher is returned as it is, so logging that is off costs
    /// nothing.
    ///
    /// - Parameters:
    ///   - sink: Where entries go, such as ``StreamLogSink``.
    ///   - level: How much is written about each request; ``LogLevel/basic`` by default.
    ///   - vocabulary: The names whose values are redacted; `SecretVocabulary.default` unless
    ///     given, `SecretVocabulary.none` to turn redaction off.
    ///   - bodyLimit: The most bytes of a body written at ``LogLevel/body``; 4096 by default.
    ///   - clock: The clock durations are measured on; inject a manual clock in tests.
    /// - Returns: A logging dispatcher, or this dispatcher at ``LogLevel/none``.
    public func logging(
        to sink: any LogSink, level: LogLevel = .basic, redacting vocabulary: SecretVocabulary = .default,
        bodyLimit: Int = 4096, clock: any Clock<Duration> = ContinuousClock()
    ) -> any NetworkDispatcher {
        guard level > .none else { return self }
        return LoggingDispatcher(
            base: self, sink: sink, level: level, vocabulary: vocabulary, bodyLimit: bodyLimit, clock: clock)
    }
}
