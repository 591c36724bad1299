import Errand
import Foundation

/// When and how often to send a request again after a failure.
///
/// The defaults follow what servers expect: up to 3 attempts, exponential backoff with full
/// jitter, only for 408, 429 and 5xx gateway/availability statuses and for transport failures
/// that a second try can cure; never for a cancelled request, never for another 4xx, and only
/// for idempotent methods unless the request (or the policy) opts in. `Retry-After` is honoured,
/// in seconds or as an HTTP date, up to ``maximumRetryAfter``.
public struct RetryPolicy: Sendable {
    /// How backoff delays are randomised.
    public enum Jitter: Hashable, Sendable {
        /// The computed delay exactly.
        case none
        /// A random delay between zero and the computed delay (spreads a thundering herd best).
        case full
        /// Half the computed delay plus a random part of the other half.
        case equal
    }

    /// Exponential backoff: `base × multiplier^(retry − 1)`, at most `maximum`, then jittered.
    public struct Backoff: Hashable, Sendable {
        /// The delay before the first retry, before jitter.
        public var base: Duration
        /// How much each delay grows over the one before.
        public var multiplier: Double
        /// The largest delay, before jitter.
        public var maximum: Duration
        /// How the delay is randomised.
        public var jitter: Jitter

        /// Creates a backoff.
        public init(
            base: Duration = .milliseconds(500), multiplier: Double = 2, maximum: Duration = .seconds(30),
            jitter: Jitter = .full
        ) {
            self.base = base
            self.multiplier = multiplier
            self.maximum = maximum
            self.jitter = jitter
        }

        /// The delay before retry number `retry` (1 for the first), given a random number in `0..<1`.
        ///
        /// Every value gives a delay, never a trap: a growth that overflows, or that is NaN (a
        /// zero base times an infinite multiplier), is ``maximum``; a random number outside
        /// `0...1` is clamped into it (NaN is 0); a retry number below 1 is 1; and no delay is
        /// longer than some 32 million years, which every clock can wait for.
        public func delay(beforeRetry retry: Int, random: Double) -> Duration {
            let grown = base.seconds * pow(multiplier, retry > 1 ? Double(retry - 1) : 0)
            let capped = grown.isNaN ? maximum.seconds : min(grown, maximum.seconds)
            let share = random.isNaN ? 0 : min(max(random, 0), 1)
            switch jitter {
            case .none: return .saturating(seconds: capped)
            case .full: return .saturating(seconds: capped * share)
            case .equal: return .saturating(seconds: capped / 2 + capped / 2 * share)
            }
        }
    }

    /// The transport failures worth another try.
    public enum TransportFailure: Hashable, Sendable, CaseIterable {
        /// The request's deadline passed, or the connection went idle too long.
        case timedOut
        /// The connection dropped during the exchange.
        case connectionLost
        /// No connection could be made (refused, unreachable, DNS).
        case cannotConnect
    }

    /// The most attempts in all, the first included; 1 means never retry.
    public var maximumAttempts: Int
    /// The delays between attempts.
    public var backoff: Backoff
    /// Statuses that are retried. Only 408, 429 and 5xx are ever retried, whatever this holds.
    public var retryableStatusCodes: Set<Int>
    /// Transport failures that are retried. A cancelled request never is.
    public var retryableFailures: Set<TransportFailure>
    /// The longest `Retry-After` honoured; a server asking for longer gets no retry.
    public var maximumRetryAfter: Duration
    /// Retry `POST`, `PATCH` and other non-idempotent methods too (a request can also opt in alone).
    public var retriesNonIdempotentRequests: Bool
    /// Called before each retry with the failed attempt and the reason, for logs and metrics.
    public var onRetry: (@Sendable (RetryEvent) -> Void)?

    /// Creates a policy.
    public init(
        maximumAttempts: Int = 3, backoff: Backoff = Backoff(),
        retryableStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504],
        retryableFailures: Set<TransportFailure> = Set(TransportFailure.allCases),
        maximumRetryAfter: Duration = .seconds(60), retriesNonIdempotentRequests: Bool = false,
        onRetry: (@Sendable (RetryEvent) -> Void)? = nil
    ) {
        self.maximumAttempts = maximumAttempts
        self.backoff = backoff
        self.retryableStatusCodes = retryableStatusCodes
        self.retryableFailures = retryableFailures
        self.maximumRetryAfter = maximumRetryAfter
        self.retriesNonIdempotentRequests = retriesNonIdempotentRequests
        self.onRetry = onRetry
    }

    /// Up to 3 attempts with full-jitter exponential backoff from 0.5 s.
    public static var `default`: RetryPolicy { RetryPolicy() }

    /// Never retry.
    public static var none: RetryPolicy { RetryPolicy(maximumAttempts: 1) }

    /// Whether `request` may be retried at all under this policy.
    func allowsRetries(of request: RequestData) -> Bool {
        maximumAttempts > 1
            && (request.method.isIdempotent || request.allowsRetryWhenNotIdempotent
                || retriesNonIdempotentRequests)
    }

    /// Whether a response with `status` is worth another try.
    func retries(status: Int) -> Bool {
        retryableStatusCodes.contains(status)
            && (status == 408 || status == 429 || (500..<600).contains(status))
    }
}

/// One retry about to happen: which attempt failed, why, and how long until the next.
public struct RetryEvent: Sendable, CustomStringConvertible {
    /// Why an attempt is retried.
    public enum Reason: Sendable, Hashable {
        /// The server answered with a retryable status.
        case status(Int)
        /// The transport failed in a way worth another try.
        case transport(RetryPolicy.TransportFailure)
    }

    /// The request being retried.
    public let request: RequestData
    /// The attempt that failed, 1 for the first.
    public let failedAttempt: Int
    /// Why it is retried.
    public let reason: Reason
    /// How long until the next attempt.
    public let delay: Duration
    /// Whether the delay came from the server's `Retry-After`.
    public let fromRetryAfter: Bool

    /// For logs: `retry 2 of GET /x after 0.5 seconds (status 503)`.
    public var description: String {
        let why =
            switch reason {
            case .status(let status): "status \(status)"
            case .transport(let failure): "\(failure)"
            }
        return
            "retry \(failedAttempt) of \(request) after \(delay) (\(why)\(fromRetryAfter ? ", Retry-After" : ""))"
    }
}
