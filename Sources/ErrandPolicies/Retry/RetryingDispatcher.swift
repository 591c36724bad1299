import Errand
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A dispatcher that sends a request again, after a backoff, when the wrapped dispatcher's
/// answer is worth another try under its ``RetryPolicy``. Made with
/// ``Errand/NetworkDispatcher/retrying(_:clock:now:random:)``.
///
/// Waits go through the injected clock. Cancelling during a wait ends the request at once with
/// `cancelled`. When it gives up after retrying, the error says how many attempts were made; a
/// retryable status that is still there at the end becomes an `unacceptableStatus` error that
/// keeps the last response.
///
/// Written once, as async code: every attempt, the first included, goes through the same loop
/// in one task (the caller's chain's, or one of its own when it is outermost), so an attempt's
/// session stamp, its cancel and its outcome are handled alike whichever attempt it is.
public struct RetryingDispatcher: WrappingDispatcher, AsyncPolicy {
    /// The dispatcher that sends each attempt.
    public let base: any NetworkDispatcher
    /// When to retry.
    public let policy: RetryPolicy
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Date
    private let random: @Sendable () -> Double
    /// Stamps each request with its session, so that no attempt after a sign-out or an account
    /// switch goes out with the next session's token (it fails with `sessionEnded`).
    private let stamper: SessionStamper

    /// Creates a retrying dispatcher.
    ///
    /// - Parameters:
    ///   - base: The dispatcher that sends each attempt.
    ///   - policy: When to retry.
    ///   - clock: The clock backoff waits on.
    ///   - now: The wall-clock time, for `Retry-After` dates.
    ///   - random: A number in `0..<1` for jitter.
    public init(
        base: any NetworkDispatcher, policy: RetryPolicy, clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = { Date() },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.base = base
        self.policy = policy
        self.clock = clock
        self.now = now
        self.random = random
        self.stamper = SessionStamper(below: base)
    }

    /// Sends the request, retrying as the policy says.
    @discardableResult
    public func dispatch(
        request: RequestData,
        onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        startSending(request: stamper.stamped(request), onSuccess: onSuccess, onError: onError)
    }

    /// Makes the attempts, from the first to the one that is final, with the waits between them.
    func send(_ request: RequestData) async throws(NetworkError) -> NetworkResponse {
        guard policy.allowsRetries(of: request) else { return try await base.sendInline(request) }
        let request = stamper.stamped(request)
        var attempt = 1
        while true {
            let outcome: Result<NetworkResponse, NetworkError>
            do {
                outcome = .success(try await base.sendInline(request))
            } catch {
                outcome = .failure(error)
            }
            if Task.isCancelled { throw .cancelled(request) }
            guard attempt < policy.maximumAttempts,
                let event = retryEvent(after: outcome, attempt: attempt, request)
            else {
                return try finish(outcome, attempts: attempt, request: request)
            }
            try await wait(for: event)
            attempt += 1
        }
    }

    /// Tells the policy of the retry, then sleeps its delay; a cancel ends the wait at once.
    private func wait(for event: RetryEvent) async throws(NetworkError) {
        policy.onRetry?(event)
        do {
            try await clock.sleep(for: event.delay.clampedToLongest)
        } catch {
            throw .cancelled(event.request)
        }
    }

    /// The retry to make after `outcome`, or `nil` when it is final.
    private func retryEvent(
        after outcome: Result<NetworkResponse, NetworkError>, attempt: Int, _ request: RequestData
    ) -> RetryEvent? {
        let reason: RetryEvent.Reason
        var retryAfter: Duration?
        switch outcome {
        case .success(let response):
            guard policy.retries(status: response.statusCode) else { return nil }
            reason = .status(response.statusCode)
            retryAfter = RetryAfter.delay(in: response, now: now())
            if let retryAfter, retryAfter > policy.maximumRetryAfter { return nil }
        case .failure(let error):
            guard let failure = Self.transportFailure(of: error), policy.retryableFailures.contains(failure)
            else {
                return nil
            }
            reason = .transport(failure)
        }
        let delay = retryAfter ?? policy.backoff.delay(beforeRetry: attempt, random: random())
        return RetryEvent(
            request: request, failedAttempt: attempt, reason: reason, delay: delay,
            fromRetryAfter: retryAfter != nil)
    }

    /// The outcome handed back after the last attempt, saying how many attempts there were.
    private func finish(
        _ outcome: Result<NetworkResponse, NetworkError>, attempts: Int, request: RequestData
    ) throws(NetworkError) -> NetworkResponse {
        switch outcome {
        case .success(var response):
            guard attempts > 1 else { return response }
            guard policy.retries(status: response.statusCode) else {
                response.attempts = attempts
                return response
            }
            var error = NetworkError(
                code: .unacceptableStatus,
                message:
                    "The server still answered \(response.statusCode) \(HTTPStatus.reason(for: response.statusCode)) "
                    + "after \(attempts) attempts.",
                request: request, response: response)
            error.attempts = attempts
            throw error
        case .failure(var error):
            guard attempts > 1 else { throw error }
            error.message += " Gave up after \(attempts) attempts."
            error.attempts = attempts
            throw error
        }
    }

    /// Which retryable kind of transport failure an error is, if any.
    static func transportFailure(of error: NetworkError) -> RetryPolicy.TransportFailure? {
        switch error.code {
        case .timedOut: return .timedOut
        case .transport:
            switch (error.underlyingError as? URLError)?.code {
            case .timedOut?: return .timedOut
            case .networkConnectionLost?: return .connectionLost
            case .cannotConnectToHost?, .cannotFindHost?, .dnsLookupFailed?, .notConnectedToInternet?:
                return .cannotConnect
            default: return nil
            }
        default: return nil
        }
    }
}

extension NetworkDispatcher {
    /// This dispatcher, retrying as `policy` says.
    ///
    /// - Parameters:
    ///   - policy: When to retry; ``RetryPolicy/default`` by default.
    ///   - clock: The clock backoff waits on; inject a manual clock in tests.
    ///   - now: The wall-clock time, for `Retry-After` dates.
    ///   - random: A number in `0..<1` for jitter.
    public func retrying(
        _ policy: RetryPolicy = .default, clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = { Date() },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) -> RetryingDispatcher {
        RetryingDispatcher(base: self, policy: policy, clock: clock, now: now, random: random)
    }
}
