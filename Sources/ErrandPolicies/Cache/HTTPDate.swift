import Errand
import Foundation

/// HTTP dates (RFC 9110 §5.6.7): read in all three forms, written as IMF-fixdate.
///
/// Read by hand rather than with `DateFormatter`: it is exact about the three forms, independent
/// of the locale and time zone, and never stops the program on what a server sends.
///
/// - IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`
/// - obsolete RFC 850: `Sunday, 06-Nov-94 08:49:37 GMT` (a two-digit year more than 50 years in
///   the future is taken as the past century, as §5.6.7 asks)
/// - obsolete asctime: `Sun Nov  6 08:49:37 1994`
enum HTTPDate {
    private static let months = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]
    /// The three lower-case bytes of each month's name in one number, to compare without a string.
    fileprivate static let monthKeys = months.map { $0.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// The date `text` names, or `nil` when it is none of the three forms.
    ///
    /// - Parameters:
    ///   - text: The field value.
    ///   - now: The present, to place a two-digit RFC 850 year in its century.
    static func parse(_ text: String, now: Date = Date()) -> Date? {
        // On the bytes, with no string made: a cache reads a date or two from every response.
        var text = text
        return text.withUTF8 { parse(Bytes(bytes: $0), now: now) }
    }

    /// The bytes of a field value, split into tokens at spaces, tabs, commas and dashes.
    private struct Bytes {
        let bytes: UnsafeBufferPointer<UInt8>
        /// The first tokens, as many as the three forms have plus one, to tell a longer text.
        private(set) var tokens: [Range<Int>] = []

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            tokens.reserveCapacity(7)
            var start: Int?
            for index in bytes.indices {
                let byte = bytes[index]
                let separates =
                    byte == UInt8(ascii: " ") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: "\t")
                if separates {
                    if let first = start { tokens.append(first..<index) }
                    start = nil
                    if tokens.count == 7 { return }
                } else if start == nil {
                    start = index
                }
            }
            if let first = start { tokens.append(first..<bytes.count) }
        }

        /// The token at `index` as a number of as many decimal digits as `digits` allows.
        func number(_ index: Int, digits: ClosedRange<Int>) -> Int? {
            number(in: tokens[index], digits: digits)
        }

        func number(in range: Range<Int>, digits: ClosedRange<Int>) -> Int? {
            guard digits.contains(range.count) else { return nil }
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }

        /// `1` for `Jan` (any case) to `12` for `Dec`.
        func month(_ index: Int) -> Int? {
            let range = tokens[index]
            guard range.count == 3 else { return nil }
            let key = bytes[range].reduce(UInt32(0)) { $0 << 8 | UInt32($1 | 0x20) }
            return HTTPDate.monthKeys.firstIndex(of: key).map { $0 + 1 }
        }

        /// Whether the token at `index` is `GMT`, as written.
        func isGMT(_ index: Int) -> Bool {
            let range = tokens[index]
            return range.count == 3 && bytes[range.lowerBound] == UInt8(ascii: "G")
                && bytes[range.lowerBound + 1] == UInt8(ascii: "M")
                && bytes[range.lowerBound + 2] == UInt8(ascii: "T")
        }

        /// `HH:MM:SS` at `index`, each part of two digits.
        func time(_ index: Int) -> (hour: Int, minute: Int, second: Int)? {
            let range = tokens[index]
            guard range.count == 8, bytes[range.lowerBound + 2] == UInt8(ascii: ":"),
                bytes[range.lowerBound + 5] == UInt8(ascii: ":"),
                let hour = number(in: range.lowerBound..<range.lowerBound + 2, digits: 2...2),
                let minute = number(in: range.lowerBound + 3..<range.lowerBound + 5, digits: 2...2),
                let second = number(in: range.lowerBound + 6..<range.lowerBound + 8, digits: 2...2)
            else { return nil }
            return (hour, minute, second)
        }
    }

    private static func parse(_ text: Bytes, now: Date) -> Date? {
        let day: Int?
        let month: Int?
        var year: Int?
        let timeIndex: Int
        switch text.tokens.count {
        case 6 where text.isGMT(5):
            // IMF-fixdate or RFC 850: weekday, day, month, year, time, GMT.
            day = text.number(1, digits: 1...2)
            month = text.month(2)
            year = text.number(3, digits: 4...4)
            if year == nil, let short = text.number(3, digits: 2...2) {
                year = fullYear(short, now: now)
            }
            timeIndex = 4
        case 5:
            // asctime: weekday, month, day, time, year.
            month = text.month(1)
            day = text.number(2, digits: 1...2)
            year = text.number(4, digits: 4...4)
            timeIndex = 3
        default:
            return nil
        }
        guard let day, let month, let year, let clock = text.time(timeIndex),
            (1...31).contains(day), clock.hour < 24, clock.minute < 60, clock.second < 61
        else { return nil }
        let days = CivilDate.daysSinceEpoch(year: year, month: month, day: day)
        let seconds = ((days * 24 + clock.hour) * 60 + clock.minute) * 60 + clock.second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// `date` as an IMF-fixdate, such as `Sun, 06 Nov 1994 08:49:37 GMT`; a date beyond the
    /// years 1 to 9999 is written as the nearest of them, and a NaN one as 1970's first second.
    static func format(_ date: Date) -> String {
        // 0001-01-01 and 9999-12-31T23:59:59, in seconds since 1970.
        let total = Int.saturating(
            date.timeIntervalSince1970.rounded(.down), within: -62_135_596_800...253_402_300_799)
        let days = Int((Double(total) / 86_400).rounded(.down))
        let secondsOfDay = total - days * 86_400
        let (year, month, day) = CivilDate.civil(fromDays: days)
        let weekday = weekdays[((days % 7) + 11) % 7]
        return
            "\(weekday), \(pad(day)) \(months[month - 1].capitalized) \(CivilDate.zeroPadded(year, width: 4)) "
            + "\(pad(secondsOfDay / 3600)):\(pad(secondsOfDay / 60 % 60)):\(pad(secondsOfDay % 60)) GMT"
    }

    private static func pad(_ value: Int) -> String {
        CivilDate.zeroPadded(value, width: 2)
    }

    /// A two-digit year in the century that puts it at most 50 years ahead of `now`.
    private static func fullYear(_ short: Int, now: Date) -> Int {
        // An injected clock may say anything; a day count beyond ±10^9 (2.7 million years) would
        // overflow the calendar arithmetic.
        let days = Int.saturating(
            (now.timeIntervalSince1970 / 86_400).rounded(.down), within: -1_000_000_000...1_000_000_000)
        let current = CivilDate.civil(fromDays: days).year
        var year = current - current % 100 + short
        if year > current + 50 { year -= 100 }
        return year
    }
}
