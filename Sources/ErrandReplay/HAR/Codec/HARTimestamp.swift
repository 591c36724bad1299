import Errand
import Foundation

/// Parses the ISO 8601 date-times exporters write and writes the one normalised form.
///
/// Reading accepts `2024-01-31T12:00:00Z`, any number of fractional digits
/// (`…:00.1`, `…:00.123456`, Fiddler's seven), a `.` or `,` before them, offsets written `Z`,
/// `z`, `+00:00`, `+0530`, `-08` or nothing (read as UTC), and `T`, `t` or a space between
/// date and time. Writing always gives UTC with exactly three fractional digits:
/// `2024-01-31T12:00:00.000Z`.
///
/// Plain arithmetic (``CivilDate``, shared with HTTP dates) instead of `DateFormatter` or
/// `ISO8601DateFormatter`: no locale, no shared formatter to lock, and the same result on
/// Linux and Apple platforms.
enum HARTimestamp {
    /// Parses a date-time, or returns `nil` when the text is not one.
    static func parse(_ text: String) -> Date? {
        var scanner = Scanner(bytes: Array(text.utf8))
        scanner.skipSpaces()
        guard let year = scanner.digits(4), scanner.take(0x2D),
            let month = scanner.digits(2), scanner.take(0x2D),
            let day = scanner.digits(2), scanner.takeAny([0x54, 0x74, 0x20]),
            let hour = scanner.digits(2), scanner.take(0x3A),
            let minute = scanner.digits(2)
        else { return nil }
        var second = 0
        var nanoseconds = 0
        if scanner.take(0x3A) {
            guard let value = scanner.digits(2) else { return nil }
            second = value
            if scanner.takeAny([0x2E, 0x2C]) {
                guard let fraction = scanner.fraction() else { return nil }
                nanoseconds = fraction
            }
        }
        guard let offset = scanner.offsetSeconds() else { return nil }
        scanner.skipSpaces()
        guard scanner.isAtEnd, (1...12).contains(month),
            (1...CivilDate.daysIn(month: month, year: year)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = CivilDate.daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1_000_000_000)
    }

    /// Formats a date as `yyyy-MM-ddTHH:mm:ss.SSSZ` in UTC, rounded to the millisecond, or
    /// returns `nil` for a date outside years 0 to 9999.
    static func format(_ date: Date) -> String? {
        let milliseconds = (date.timeIntervalSince1970 * 1_000).rounded()
        // 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z in milliseconds since 1970.
        guard milliseconds.isFinite, milliseconds >= -62_167_219_200_000, milliseconds < 253_402_300_800_000
        else { return nil }
        let total = Int(milliseconds)
        let dayLength = 86_400_000
        let days = total >= 0 ? total / dayLength : (total - dayLength + 1) / dayLength
        let inDay = total - days * dayLength
        let civil = CivilDate.civil(fromDays: days)
        var text = pad(civil.year, 4) + "-" + pad(civil.month, 2) + "-" + pad(civil.day, 2)
        text += "T" + pad(inDay / 3_600_000, 2) + ":" + pad(inDay / 60_000 % 60, 2)
        text += ":" + pad(inDay / 1_000 % 60, 2) + "." + pad(inDay % 1_000, 3) + "Z"
        return text
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        CivilDate.zeroPadded(value, width: width)
    }

    /// A cursor over the bytes of a date-time.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        var isAtEnd: Bool { index == bytes.count }

        mutating func skipSpaces() {
            while index < bytes.count, bytes[index] == 0x20 {
                index += 1
            }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func takeAny(_ choices: [UInt8]) -> Bool {
            guard index < bytes.count, choices.contains(bytes[index]) else { return false }
            index += 1
            return true
        }

        /// Exactly `count` decimal digits as a number.
        mutating func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += count
            return value
        }

        /// One or more fractional digits as nanoseconds; digits past the ninth are ignored.
        mutating func fraction() -> Int? {
            var nanoseconds = 0
            var count = 0
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                if count < 9 {
                    nanoseconds = nanoseconds * 10 + Int(bytes[index] - 0x30)
                }
                count += 1
                index += 1
            }
            guard count > 0 else { return nil }
            for _ in count..<max(count, 9) {
                nanoseconds *= 10
            }
            return nanoseconds
        }

        /// The offset east of UTC in seconds: `Z`, `±HH:MM`, `±HHMM`, `±HH`, or none (UTC).
        mutating func offsetSeconds() -> Int? {
            if takeAny([0x5A, 0x7A]) || isAtEnd || bytes[index] == 0x20 {
                return 0
            }
            let sign: Int
            if take(0x2B) {
                sign = 1
            } else if take(0x2D) {
                sign = -1
            } else {
                return nil
            }
            guard let hours = digits(2), hours <= 23 else { return nil }
            var minutes = 0
            if take(0x3A) {
                guard let value = digits(2) else { return nil }
                minutes = value
            } else if let value = digits(2) {
                minutes = value
            }
            guard minutes <= 59 else { return nil }
            return sign * (hours * 3_600 + minutes * 60)
        }
    }
}
