/// Proleptic Gregorian calendar arithmetic in UTC, on plain integers.
///
/// HTTP dates and HAR timestamps both turn a year, a month and a day into a count of days since
/// 1970-01-01 and back; each format keeps its own reading and writing, and shares this. Plain
/// arithmetic rather than `Calendar`: no locale, no time zone, and the same result on Linux and
/// Apple platforms (Howard Hinnant's `days_from_civil` and `civil_from_days`).
package enum CivilDate {
    /// Days from 1970-01-01 to a proleptic Gregorian date; negative before it.
    ///
    /// - Parameters:
    ///   - year: The year, astronomical numbering (year 0 is 1 BC).
    ///   - month: `1` for January to `12` for December.
    ///   - day: The day of the month; a day past the month's end counts on into the next.
    /// - Returns: The number of days since 1970-01-01.
    package static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01 (the inverse of ``daysSinceEpoch(year:month:day:)``).
    ///
    /// - Parameter days: Days since 1970-01-01, within ±10^12 so the arithmetic cannot overflow.
    /// - Returns: The year, the month (`1` to `12`) and the day of the month.
    package static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The number of days in `month` of `year`: 28 or 29 for February, as the leap rule says.
    ///
    /// - Parameters:
    ///   - month: `1` for January to `12` for December.
    ///   - year: The year, astronomical numbering.
    /// - Returns: 28 to 31.
    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// `value` in decimal with leading zeros up to `width` digits, as date formats write numbers.
    ///
    /// - Parameters:
    ///   - value: A number, usually non-negative.
    ///   - width: The least number of characters.
    /// - Returns: `value` padded on the left with `0`.
    package static func zeroPadded(_ value: Int, width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
