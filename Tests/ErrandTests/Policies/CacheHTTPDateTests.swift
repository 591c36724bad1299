import Foundation
import Testing

@testable import Errand
@testable import ErrandPolicies

/// HTTP dates in their three forms (RFC 9110 §5.6.7).
@Suite struct CacheHTTPDateTests {
    static let expected = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT

    @Test func readsTheThreeFormsAsTheSameInstant() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == Self.expected)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: now) == Self.expected)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994", now: now) == Self.expected)
    }

    @Test func writesIMFFixdate() {
        #expect(HTTPDate.format(Self.expected) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 GMT")
        let leap = Date(timeIntervalSince1970: 951_782_400)  // 2000-02-29
        #expect(HTTPDate.parse(HTTPDate.format(leap)) == leap)
    }

    @Test func aTwoDigitYearMoreThanFiftyYearsAheadIsInThePastCentury() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)  // 2023
        // 2080 would be 57 years ahead, so 1980; 2070 is 47 years ahead, so it stays
        #expect(
            HTTPDate.parse("Tuesday, 01-Jan-80 00:00:00 GMT", now: now)
                == Date(timeIntervalSince1970: 315_532_800))
        #expect(
            HTTPDate.parse("Wednesday, 01-Jan-70 00:00:00 GMT", now: now)
                == Date(timeIntervalSince1970: 3_155_760_000))
    }

    @Test func refusesWhatIsNotADate() {
        for text in [
            "", "0", "-1", "tomorrow", "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 32 Nov 1994 08:49:37 GMT",
            "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:49:37 GMT", "Sun, 06 Nov 1994 08:49 GMT",
            "Sun, 06 Nov 99999999999999999999 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37:00 GMT",
        ] {
            #expect(HTTPDate.parse(text) == nil, "\(text)")
        }
    }

    @Test func writesAndPlacesDatesFromAnyClockWithoutStopping() {
        // Given dates an injected clock may give: NaN, infinite, far beyond the calendar
        // (each stopped the process at 8971c84)
        // Then they are written as the nearest date of years 1 to 9999, NaN as the epoch
        #expect(HTTPDate.format(Date(timeIntervalSince1970: .nan)) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: .infinity)) == "Fri, 31 Dec 9999 23:59:59 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: -1e300)) == "Mon, 01 Jan 0001 00:00:00 GMT")
        // And a two-digit year is still placed in a century
        for seconds in [Double.nan, .infinity, -.infinity, 1e300] {
            #expect(
                HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: Date(timeIntervalSince1970: seconds))
                    != nil)
        }
    }
}
