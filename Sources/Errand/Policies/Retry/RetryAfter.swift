import Foundation

/// Reads a `Retry-After` header: a number of seconds or an HTTP date (RFC 9110 §10.2.3).
enum RetryAfter {
    /// The delay the header asks for, measured from `now`; `nil` when absent or unreadable.
    static func delay(in response: NetworkResponse, now: Date) -> Duration? {
        guard let value = response.headers["Retry-After"]?.trimmingCharacters(in: .whitespaces) else {
            return nil
        }
        if let seconds = Int(value) { return .seconds(max(0, seconds)) }
        guard let date = httpDate(value) else { return nil }
        return .seconds(max(0, date.timeIntervalSince(now)))
    }

    /// Parses the three HTTP date forms, IMF-fixdate first.
    static func httpDate(_ value: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        for format in [
            "EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy",
        ] {
            formatter.dateFormat = format
            if let date = formatter.date(from: value) { return date }
        }
        return nil
    }
}
