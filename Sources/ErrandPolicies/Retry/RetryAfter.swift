import Errand
import Foundation

/// Reads a `Retry-After` header: a number of seconds or an HTTP date (RFC 9110 §10.2.3).
enum RetryAfter {
    /// The delay the header asks for, measured from `now`; `nil` when absent or unreadable.
    ///
    /// Seconds are delta-seconds, read as the cache reads them: digits only, and a number too
    /// large for the machine is 2^31 seconds, so that it stays longer than any
    /// ``RetryPolicy/maximumRetryAfter`` rather than being ignored. The date is read by
    /// ``HTTPDate``, as the cache reads its dates: `DateFormatter` stops the program on some
    /// bytes a server may send.
    static func delay(in response: NetworkResponse, now: Date) -> Duration? {
        guard let value = response.headers["Retry-After"]?.trimmingCharacters(in: .whitespaces) else {
            return nil
        }
        if let seconds = CacheControl.deltaSeconds(value) { return .seconds(seconds) }
        guard let date = HTTPDate.parse(value, now: now) else { return nil }
        return .saturating(seconds: max(0, date.timeIntervalSince(now)))
    }
}
