import ErrandReplay
import Foundation
import Testing

/// Garbage in gives a typed error that says what was wrong and where, and never a crash.
@Suite struct HARErrorTests {
    @Test func rejectsAFileThatIsNotJSON() throws {
        let error = try readError("garbage-not-json.har")
        #expect(error.code == .notJSON)
        #expect(error.line == 1)
        #expect(error.column == 1)
        #expect(error.reason.contains("'<'"))
        #expect(error.description.contains("garbage-not-json.har"))
    }

    @Test func reportsATruncatedFileWithTheEntryAndFieldItEndsIn() throws {
        // Given the mitmproxy capture cut off inside entry 5's response body
        let error = try readError("garbage-truncated.har")
        // Then the error says truncated, and names the entry, the field and the position
        #expect(error.code == .truncated)
        #expect(error.entryIndex == 5)
        #expect(error.path == "log.entries[5].response.content.text")
        #expect(error.line == 558)
        #expect(error.column == 115)
        #expect(error.description.contains("entry 5"))
        #expect(error.description.contains("cut off"))
    }

    @Test func reportsTruncationAtEveryCutOfARealFile() throws {
        // Given the real capture cut at many points, Then each is a truncation, never a crash
        let data = try Fixtures.data("mitmproxy-httpbin.har")
        for length in stride(from: 1, to: data.count - 2, by: 3_989) {
            #expect(throws: HARError.self) { try HAR(data: data.prefix(length)) }
            do {
                _ = try HAR(data: data.prefix(length))
            } catch {
                #expect(error.code == .truncated, "cut at \(length)")
            }
        }
    }

    @Test func pointsAtASyntaxErrorInTheMiddle() throws {
        let error = try readError("garbage-missing-comma.har")
        #expect(error.code == .notJSON)
        #expect(error.line == 185)
        #expect(error.column == 11)
        #expect(error.entryIndex == 5)
        #expect(error.reason == "expected ',' or '}' but found '\"'")
    }

    @Test func namesTheFieldOfAWrongShape() throws {
        let error = try readError("garbage-entries-object.har")
        #expect(error.code == .wrongType)
        #expect(error.path == "log.entries")
        #expect(error.reason == "expected an array but found an object")
        #expect(error.entryIndex == nil)
    }

    @Test func namesTheEntryAndFieldOfAWrongType() throws {
        let error = try readError("garbage-wrong-type.har")
        #expect(error.code == .wrongType)
        #expect(error.path == "log.entries[1].request.headers[0].value")
        #expect(error.entryIndex == 1)
        #expect(error.reason == "expected a string but found a number")
        #expect(error.description.contains("log.entries[1].request.headers[0].value"))
    }

    @Test func namesAMissingRequiredField() throws {
        let error = try readError("garbage-missing-url.har")
        #expect(error.code == .missingField)
        #expect(error.path == "log.entries[2].request.url")
        #expect(error.entryIndex == 2)
        #expect(error.reason.contains("\"url\""))
    }

    @Test func rejectsAnUnreadableDate() throws {
        let error = try readError("garbage-bad-date.har")
        #expect(error.code == .invalidValue)
        #expect(error.path == "log.entries[3].startedDateTime")
        #expect(error.reason.contains("yesterday at noon"))
    }

    @Test func rejectsInvalidBase64() throws {
        let error = try readError("garbage-bad-base64.har")
        #expect(error.code == .invalidValue)
        #expect(error.path == "log.entries[4].response.content.text")
        #expect(error.entryIndex == 4)
    }

    @Test(arguments: [
        ("", HARError.Code.notJSON, ""),
        ("  \n", .notJSON, ""),
        ("[1, 2]", .wrongType, ""),
        (#"{"log": 3}"#, .wrongType, "log"),
        (#"{"lag": {}}"#, .missingField, "log"),
        (#"{"log": {"entries": null}}"#, .missingField, "log.entries"),
        (#"{"log": {"entries": [{}]}}"#, .missingField, "log.entries[0].request"),
        (oneEntry(response: "{}"), .missingField, "log.entries[0].response.status"),
        (oneEntry(response: #"{"status": 200.5}"#), .invalidValue, "log.entries[0].response.status"),
        (oneEntry(response: #"{"status": "200"}"#), .wrongType, "log.entries[0].response.status"),
        (oneEntry(request: #"{"method": "GET"}"#), .missingField, "log.entries[0].request.url"),
        (
            oneEntry(request: #"{"method": "GET", "url": "/", "headers": {}}"#), .wrongType,
            "log.entries[0].request.headers"
        ),
        (oneEntry(date: "2024-13-01T00:00:00Z"), .invalidValue, "log.entries[0].startedDateTime"),
        (oneEntry(date: "2024-02-30T00:00:00Z"), .invalidValue, "log.entries[0].startedDateTime"),
        (oneEntry(date: "2024-01-01T00:00:00+25:00"), .invalidValue, "log.entries[0].startedDateTime"),
        (
            oneEntry(response: #"{"status": 200, "content": {"text": "x", "encoding": "gzip"}}"#),
            .invalidValue,
            "log.entries[0].response.content.encoding"
        ),
        (oneEntry(date: #"\ud800"#), .notJSON, "log.entries[0].startedDateTime"),
        (#"{"log": {"entries": [}}"#, .notJSON, "log.entries[0]"),
        (#"{"log": {}} trailing"#, .notJSON, ""),
        (#"{"log": {"entries": [tru"#, .truncated, "log.entries[0]"),
    ])
    func rejectsGarbageWithTheRightCodeAndPath(input: String, code: HARError.Code, path: String) {
        // Given bytes that are not a usable HAR, When read, Then the error has code and path
        do {
            _ = try HAR(data: Data(input.utf8))
            Issue.record("read garbage without an error: \(input)")
        } catch {
            #expect(error.code == code, "\(error)")
            #expect(error.path == path, "\(error)")
            #expect(!error.description.isEmpty)
        }
    }

    @Test func namesAnEscapedKeyInThePathAsItReads() throws {
        // Given a syntax error under a key spelled with a `\u` escape (`entr\u0069es` is `entries`)
        let input = #"{"log": {"entr\u0069es": [1 2]}}"#
        // When it is read
        let error = try #require(throws: HARError.self) { try HAR(data: Data(input.utf8)) }
        // Then the path names the key as it reads, not as it is escaped
        #expect(error.code == .notJSON)
        #expect(error.path == "log.entries[0]")
        #expect(error.entryIndex == 0)
        #expect(error.reason == "expected ',' or ']' but found '2'")
        #expect((error.line, error.column) == (1, 29))
    }

    @Test func survivesDeeplyNestedGarbage() {
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: HARError.self) { try HAR(data: Data(deep.utf8)) }
        let deepObject = "{\"log\": " + String(repeating: "{\"a\": ", count: 50_000)
        #expect(throws: HARError.self) { try HAR(data: Data(deepObject.utf8)) }
    }

    @Test func namesAFileThatCannotBeRead() {
        let missing = URL(fileURLWithPath: "/nonexistent/folder/cassette.har")
        do {
            _ = try HAR(contentsOf: missing)
            Issue.record("read a missing file")
        } catch {
            #expect(error.code == .fileUnreadable)
            #expect(error.file == missing)
            #expect(error.path == nil)
            #expect(error.description.hasPrefix("Cannot read HAR file /nonexistent/folder/cassette.har"))
        }
    }

    @Test func describesWhatWhereAndWhatToDo() throws {
        let error = try readError("garbage-wrong-type.har")
        let expectedStart =
            "Cannot read HAR file \(try Fixtures.url("garbage-wrong-type.har").path) at "
            + "log.entries[1].request.headers[0].value, entry 1: expected a string"
        #expect(error.description.hasPrefix(expectedStart))
        #expect(error.description.hasSuffix("Fix that field in the file, or record the cassette again."))
    }

    static func oneEntry(
        date: String = "2024-01-01T00:00:00Z",
        request: String = #"{"method": "GET", "url": "/"}"#,
        response: String = #"{"status": 200}"#
    ) -> String {
        #"{"log": {"entries": [{"startedDateTime": "\#(date)", "request": \#(request), "response": \#(response)}]}}"#
    }

    @Test func rejectsBytesThatAreNotUTF8() {
        // Given a URL holding bytes that are not UTF-8
        let parts = Self.oneEntry(request: #"{"method": "GET", "url": "/x"}"#).components(separatedBy: "/x")
        let data = Data(parts[0].utf8) + Data([0xFF, 0xFE]) + Data(parts[1].utf8)
        // Then reading fails with a typed error that names the field, instead of a crash
        do {
            _ = try HAR(data: data)
            Issue.record("read bytes that are not UTF-8")
        } catch {
            #expect(error.path == "log.entries[0].request.url", "\(error)")
        }
    }

    private func readError(_ fixture: String) throws -> HARError {
        let url = try Fixtures.url(fixture)
        do {
            _ = try HAR(contentsOf: url)
        } catch {
            #expect(error.file == url)
            return error
        }
        Issue.record("\(fixture) was read without an error")
        return HARError(code: .notJSON, reason: "no error")
    }
}
