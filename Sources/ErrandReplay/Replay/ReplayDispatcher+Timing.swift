import Errand
import Foundation

extension ReplayDispatcher {
    /// Delivers the last entry of `chain`, at once or after the recorded time, and fails with
    /// `timedOut` at the request's deadline when the recorded time is longer.
    func serve(
        _ chain: [Int], for request: RequestData, onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        let entries = state.withLock { state in chain.map { state.log.entries[$0] } }
        guard let last = entries.last else {
            onError(NetworkError(code: .unmatchedRequest, message: "No recording.", request: request))
            return CancellableAction.none
        }
        let result = Recording(entry: last).replay(for: request)
        let wait = ReplayWait(
            entries: entries, timing: configuration.timing, timeout: request.timeout ?? configuration.timeout)
        guard let delay = wait.delay else {
            switch result {
            case .success(let response): onSuccess(response)
            case .failure(let error): onError(error)
            }
            return CancellableAction.none
        }
        let clock = configuration.clock
        return PolicyCall.start(request: request, onSuccess: onSuccess, onError: onError) {
            () async throws(NetworkError) -> NetworkResponse in
            do {
                try await clock.sleep(for: delay)
            } catch {
                throw NetworkError(code: .cancelled, message: "The request was cancelled.", request: request)
            }
            guard !wait.expires else {
                throw NetworkError(
                    code: .timedOut,
                    message: "No complete response within the request's deadline of \(wait.timeout) seconds: "
                        + "the recording took \(wait.recordedMilliseconds) ms, replayed with timing "
                        + "\(wait.timing).",
                    request: request)
            }
            return try result.get()
        }
    }
}

/// How long a replayed answer waits: the recorded time, bounded by the request's deadline.
///
/// A cassette's times are untrusted numbers (`1e16`, `1.797e308`, `-1`), and so are a timing
/// factor and a timeout: every conversion to a `Duration` is clamped here, because
/// `Duration`'s integer initializers stop the process on a value out of range.
struct ReplayWait {
    /// The longest wait, about 31,700 years: far past any deadline, well inside `Int64` microseconds.
    static let longestMilliseconds = 1e15

    /// The timing in effect.
    let timing: ReplayDispatcher.Timing
    /// The deadline in seconds.
    let timeout: TimeInterval
    /// The recorded time of the chain times the factor, in milliseconds, finite and not negative.
    let recordedMilliseconds: Double
    /// How long to wait before answering, or `nil` to answer at once.
    let delay: Duration?
    /// Whether the wait ends at the deadline rather than with the answer.
    let expires: Bool

    init(entries: [HAR.Entry], timing: ReplayDispatcher.Timing, timeout: TimeInterval) {
        self.timing = timing
        self.timeout = timeout
        var milliseconds = 0.0
        if case .recorded(let factor) = timing {
            let total = entries.reduce(0.0) { $0 + Self.clamped($1.time) }
            milliseconds = Self.clamped(total * Self.clamped(factor))
        }
        recordedMilliseconds = milliseconds
        // A NaN timeout is no deadline, like `.infinity`; zero or less is a deadline already past.
        let deadline =
            timeout.isNaN ? Self.longestMilliseconds : min(max(0, timeout * 1_000), Self.longestMilliseconds)
        guard milliseconds > 0 else {
            (delay, expires) = (nil, false)
            return
        }
        expires = deadline <= milliseconds && deadline < Self.longestMilliseconds
        delay = Self.duration(milliseconds: expires ? deadline : milliseconds)
    }

    /// A number of milliseconds made finite and not negative: NaN and negatives are `0`,
    /// anything past ``longestMilliseconds`` is that.
    static func clamped(_ milliseconds: Double) -> Double {
        guard milliseconds > 0 else { return 0 }
        return min(milliseconds, longestMilliseconds)
    }

    /// A duration of a clamped number of milliseconds, to the microsecond.
    static func duration(milliseconds: Double) -> Duration {
        let microseconds = (clamped(milliseconds) * 1_000).rounded()
        return .microseconds(Int64(exactly: microseconds) ?? 0)
    }
}
