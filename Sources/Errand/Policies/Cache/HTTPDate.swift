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
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// The date `text` names, or `nil` when it is none of the three forms.
    ///
    /// - Parameters:
    ///   - text: The field value.
    ///   - now: The present, to place a two-digit RFC 850 year in its century.
    static func parse(_ text: String, now: Date = Date()) -> Date? {
        let tokens = text.split { $0 == " " || $0 == "," || $0 == "-" || $0 == "\t" }.map(String.init)
        let day: Int?
        let month: Int?
        var year: Int?
        let time: String
        switch tokens.count {
        case 6 where tokens[5] == "GMT":
            // IMF-fixdate or RFC 850: weekday, day, month, year, time, GMT.
            day = number(tokens[1], digits: 1...2)
            month = monthNumber(tokens[2])
            year = number(tokens[3], digits: 4...4)
            if year == nil, let short = number(tokens[3], digits: 2...2) {
                year = fullYear(short, now: now)
            }
            time = tokens[4]
        case 5:
            // asctime: weekday, month, day, time, year.
            month = monthNumber(tokens[1])
            day = number(tokens[2], digits: 1...2)
            year = number(tokens[4], digits: 4...4)
            time = tokens[3]
        default:
            return nil
        }
        let clock = time.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard let day, let month, let year, clock.count == 3,
            let hour = number(clock[0], digits: 2...2), let minute = number(clock[1], digits: 2...2),
            let second = number(clock[2], digits: 2...2),
            (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = ((days * 24 + hour) * 60 + minute) * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// `date` as an IMF-fixdate, such as `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func format(_ date: Date) -> String {
        let total = Int(date.timeIntervalSince1970.rounded(.down))
        let days = Int((Double(total) / 86_400).rounded(.down))
        let secondsOfDay = total - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        let weekday = weekdays[((days % 7) + 11) % 7]
        return "\(weekday), \(pad(day)) \(months[month - 1].capitalized) \(year) "
            + "\(pad(secondsOfDay / 3600)):\(pad(secondsOfDay / 60 % 60)):\(pad(secondsOfDay % 60)) GMT"
    }

    private static func pad(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    /// Decimal digits, as many as `digits` allows, as a number.
    private static func number(_ text: String, digits: ClosedRange<Int>) -> Int? {
        guard digits.contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return nil
        }
        return Int(text)
    }

    /// `1` for `Jan` (any case) to `12` for `Dec`.
    private static func monthNumber(_ text: String) -> Int? {
        months.firstIndex(of: text.lowercased()).map { $0 + 1 }
    }

    /// A two-digit year in the century that puts it at most 50 years ahead of `now`.
    private static func fullYear(_ short: Int, now: Date) -> Int {
        let current = civil(fromDays: Int(now.timeIntervalSince1970 / 86_400)).year
        var year = current - current % 100 + short
        if year > current + 50 { year -= 100 }
        return year
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01 (the inverse of ``daysSinceEpoch(year:month:day:)``).
    private static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
