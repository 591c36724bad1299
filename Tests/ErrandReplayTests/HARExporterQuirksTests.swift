import Errand
import ErrandReplay
import Foundation
import Testing

/// Quirks of real exporters in fields replay does not need: read as best they can be, or
/// dropped, never a failed file.
@Suite struct HARExporterQuirksTests {
    @Test func readsCookiesWrittenAsOneObjectAndInformationalNumbersWrittenAsText() throws {
        // Given an export with `cookies` and `queryString` as one object, and times, sizes and
        // timings written as strings
        let har = try HAR(contentsOf: Fixtures.url("cookies-single-object.har"))
        let entry = try #require(har.entries.first)
        // Then the single objects are arrays of one, and the numbers are read
        #expect(entry.request.cookies.map(\.name) == ["session"])
        #expect(entry.request.cookies.first?.httpOnly == true)
        #expect(entry.response.cookies.map(\.value) == ["1"])
        #expect(entry.request.queryString.map(\.name) == ["page"])
        #expect(entry.time == 148)
        #expect(entry.request.headersSize == 212)
        #expect(entry.response.bodySize == 13)
        #expect(entry.response.content.size == 13)
        #expect(entry.timings.wait == 140)
        #expect(entry.timings.ssl == nil)
        #expect(entry.cache.beforeRequest?.hitCount == 0)
        #expect(har.log.pages.first?.pageTimings.onContentLoad == nil)
        #expect(entry.response.content.text == #"{"orders":[]}"#)
    }

    @Test func splitsAHeaderValueArrayIntoOneFieldPerValue() throws {
        // Given headers whose values are arrays of strings
        let har = try HAR(contentsOf: Fixtures.url("header-value-arrays.har"))
        let entry = try #require(har.entries.first)
        // Then each value is a header field of its own, in order
        #expect(entry.response.values(forHeader: "Set-Cookie") == ["a=1; Path=/", "b=2; Path=/"])
        #expect(entry.request.values(forHeader: "Accept") == ["application/json", "text/plain"])
        #expect(entry.response.values(forHeader: "Content-Type") == ["text/plain"])
    }

    @Test func rebuildsAFormBodySavedOnlyAsParamsSoItMatches() async throws {
        // Given a form POST whose exporter saved its fields but no text
        let url = try Fixtures.url("header-value-arrays.har")
        let har = try HAR(contentsOf: url)
        #expect(har.entries.first?.request.postData?.text == "user=ada%20lovelace&remember=1")
        // When the same form is sent to a replay of it, Then it matches
        let replay = try ReplayDispatcher(
            loading: url, baseURL: testBaseURL, mode: .replayOnly, configuration: testConfiguration())
        let sent = RequestData.post("/login").body(.form(["remember": "1", "user": "ada lovelace"]))
        #expect(await replay.text(sent) == "welcome")
    }

    @Test(arguments: [
        (#""cookies": "session=1""#, 0),
        (#""cookies": [{"value": "no name"}, {"name": "kept", "value": "1"}]"#, 1),
        (#""cookies": 7"#, 0), (#""cookies": null"#, 0),
    ])
    func dropsMalformedCookies(cookies: String, count: Int) throws {
        let har = try HAR(data: Data(Self.entry(request: #""method": "GET", "url": "/", \#(cookies)"#).utf8))
        #expect(har.entries.first?.request.cookies.count == count)
    }

    @Test(arguments: [
        (#""headersSize": 12.5, "bodySize": "n/a""#, -1), (#""headersSize": 1e300, "bodySize": -1"#, -1),
        (#""headersSize": "40", "bodySize": {}"#, 40),
    ])
    func readsMalformedSizesAsUnknown(sizes: String, headersSize: Int) throws {
        let har = try HAR(data: Data(Self.entry(request: #""method": "GET", "url": "/", \#(sizes)"#).utf8))
        #expect(har.entries.first?.request.headersSize == headersSize)
        #expect(har.entries.first?.request.bodySize == -1)
    }

    @Test(arguments: [
        ("", 0.0), (#""startedDateTime": null, "#, 0), (#""startedDateTime": {}, "#, 0),
        (#""startedDateTime": 1556784900123, "#, 1_556_784_900.123), (#""startedDateTime": 1e300, "#, 0),
    ])
    func readsAMissingOrNonTextDateAsBestItCan(date: String, seconds: Double) throws {
        // Given `startedDateTime` missing, null, an object, or JavaScript milliseconds
        let text =
            #"{"log": {"entries": [{\#(date)"request": {"method": "GET", "url": "/"}, "#
            + #""response": {"status": 0, "_error": "net::ERR_ABORTED"}}]}}"#
        // Then the entry reads, and writes back
        let har = try HAR(data: Data(text.utf8))
        let started = try #require(har.entries.first?.startedDateTime)
        #expect(abs(started.timeIntervalSince1970 - seconds) < 0.001)
        #expect(throws: Never.self) { try har.encoded() }
    }

    @Test func readsAStatusZeroAbortedRequestWithoutHTTPVersionOrContent() throws {
        let text = Self.entry(
            request:
                #""method": "GET", "url": "https://a.example/x", "comment": 3, "_initiator": {"type": "script"}"#,
            response:
                #""status": 0, "statusText": "", "_error": "net::ERR_ABORTED", "content": {"mimeType": "x-unknown"}"#
        )
        let entry = try #require(try HAR(data: Data(text.utf8)).entries.first)
        #expect(entry.request.httpVersion == "")
        #expect(entry.request.comment == "3")
        #expect(entry.response.status == 0)
        #expect(Recording(entry: entry).replay(for: .get("https://a.example/x")).failure?.code == .cancelled)
    }

    static func entry(request: String, response: String = #""status": 200"#) -> String {
        #"{"log": {"entries": [{"startedDateTime": "2024-01-01T00:00:00Z", "request": {\#(request)}, "#
            + #""response": {\#(response)}}]}}"#
    }
}
