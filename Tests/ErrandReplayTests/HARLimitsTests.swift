import ErrandReplay
import Foundation
import Testing

/// Valid JSON that a JSON reader refuses all the same: too deep, numbers past `Double`'s range.
@Suite struct HARLimitsTests {
    /// One entry whose private field `_deep` holds `depth` nested arrays.
    static func entry(deep depth: Int) -> String {
        #"{"log": {"entries": [{"startedDateTime": "2024-01-01T00:00:00Z", "_deep": "#
            + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            + #", "request": {"method": "GET", "url": "/"}, "response": {"status": 200}}]}}"#
    }

    @Test func readsNestingUpToTheLimitOfTheJSONReader() throws {
        // Given 508 arrays inside root, log, entries and the entry: 512 levels in all
        let har = try HAR(data: Data(Self.entry(deep: 508).utf8))
        #expect(har.entries.count == 1)
    }

    @Test func saysWhereNestingGoesTooDeep() throws {
        // Given one level more than the reader accepts
        do {
            _ = try HAR(data: Data(Self.entry(deep: 509).utf8))
            Issue.record("read JSON nested 513 levels deep")
        } catch {
            // Then the error says the nesting is too deep, the limit, and where
            #expect(error.code == .nestedTooDeep)
            #expect(error.reason.contains("more than 512 levels deep"))
            // The 509th bracket of `_deep` opens level 513
            let text = Self.entry(deep: 509)
            let offset = text.range(of: "[[").map {
                text.utf8.distance(from: text.startIndex, to: $0.lowerBound) + 508
            }
            #expect(error.reason.contains("byte offset \(offset ?? -1)"))
            #expect(error.line == 1)
            #expect(error.column == (offset ?? -1) + 1)
            #expect(error.path == "log.entries[0]._deep[0][0][0][0]")
            #expect(error.entryIndex == 0)
            #expect(!error.description.contains("UTF-8"))
        }
    }

    @Test(arguments: [100_000, 1_000_000])
    func aHundredThousandLevelsIsAnErrorNotACrash(depth: Int) throws {
        // Given a file nested far deeper than any reader's stack, valid JSON and invalid alike
        let valid = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let objects = String(repeating: #"{"a": "#, count: depth) + "1" + String(repeating: "}", count: depth)
        for (text, column) in [
            (valid, 513), (objects, 512 * 6 + 1), (String(repeating: "[", count: depth), 513),
        ] {
            // When read, Then it is a typed error that says the nesting is too deep
            do {
                _ = try HAR(data: Data(text.utf8))
                Issue.record("read JSON nested \(depth) levels deep")
            } catch {
                #expect(error.code == .nestedTooDeep, "\(error)")
                #expect(error.line == 1)
                #expect(error.column == column)
            }
        }
    }

    @Test(arguments: [
        ("1e400", Double.greatestFiniteMagnitude), ("1.8e308", .greatestFiniteMagnitude),
        ("-1e400", -.greatestFiniteMagnitude), ("1e-400", 0),
    ])
    func readsATimePastDoublesRangeAsTheLargestFiniteOne(number: String, time: Double) throws {
        // Given a time that JSONDecoder refuses as a Double: valid JSON all the same
        let text =
            #"{"log": {"entries": [{"startedDateTime": "2024-01-01T00:00:00Z", "time": \#(number), "#
            + #""request": {"method": "GET", "url": "/"}, "response": {"status": 200}}]}}"#
        // When read, Then it is the number as far as a Double holds it, and writes back
        let har = try HAR(data: Data(text.utf8))
        #expect(har.entries[0].time == time)
        #expect(try HAR(data: har.encoded()).entries[0].time == time)
    }

    @Test(arguments: [#""status": 1e20"#, #""status": 1e400"#, #""status": 1000"#, #""status": 99999999999"#])
    func refusesAStatusThatIsNotAnHTTPStatus(status: String) throws {
        let text =
            #"{"log": {"entries": [{"startedDateTime": "2024-01-01T00:00:00Z", "#
            + #""request": {"method": "GET", "url": "/"}, "response": {\#(status)}}]}}"#
        do {
            _ = try HAR(data: Data(text.utf8))
            Issue.record("read \(status)")
        } catch {
            #expect(error.code == .invalidValue)
            #expect(error.path == "log.entries[0].response.status")
        }
    }
}
