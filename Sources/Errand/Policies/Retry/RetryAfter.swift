import Foundation

/// Reads a `Retry-After` header: a number of seconds or an HTTP date (RFC 9110 §10.2.3).
enum RetryAfter {
    /// The delay the header asks for, measured from `now`; `nil` when absent or unreadable.
    ///
    /// The date is read by ``HTTPDate``, as the cache reads its dates: `DateFormatter` stops the
    /// program on some bytes a server may send.
    static func delay(in response: NetworkResponse, now: Date) -> Duration? {
        guard let value = response.headers["Retry-After"]?.trimmingCharacters(in: .whitespaces) else {
            return nil
        }
        if let seconds = Int(value) { return .seconds(max(0, seconds)) }
        guard let date = HTTPDate.parse(value, now: now) else { return nil }
        return .seconds(max(0, date.timeIntervalSince(now)))
    }
}
