import ErrandReplay
import Foundation
import Testing

/// Large cassettes load: a sanity check that reading and writing stay whole at size, with no
/// timing. How the time grows with size is measured by the benchmark, not here.
@Suite struct HARLoadTests {
    @Test func readsAndWritesTwoThousandEntries() throws {
        // Given 2,000 varied entries
        let entries = (0..<2_000).map(Self.entry)
        let har = HAR(creator: HAR.Creator(name: "Errand", version: "0.1"), entries: entries)
        // When written and read back
        let data = try har.encoded()
        let reread = try HAR(data: data)
        // Then every entry is there, in order, bodies intact
        #expect(reread.entries.count == 2_000)
        #expect(reread.entries[1_999].request.url == "https://api.example.com/items/1999?page=1999")
        #expect(reread.entries[1_242].response.body == Self.entry(1_242).response.body)
        #expect(reread.entries[1_243].request.body == Self.entry(1_243).request.body)
        #expect(try reread.encoded() == data)
    }

    @Test func readsTheRealCaptureRepeatedThirtyTimes() throws {
        // Given the real capture's entries repeated into one 600-entry file of 3.6 MB
        let capture = try HAR(contentsOf: Fixtures.url("mitmproxy-httpbin.har"))
        var big = capture
        big.entries = Array(repeating: capture.entries, count: 30).flatMap { $0 }
        let data = try big.encoded(redaction: .none)
        // When read, Then all of it is there
        let reread = try HAR(data: data)
        #expect(reread.entries.count == 600)
        #expect(reread.entries[587].request.body == Data((0...255).map { UInt8($0) }))
    }

    static func entry(_ index: Int) -> HAR.Entry {
        let isPost = index % 2 == 1
        let request = HAR.Request(
            method: isPost ? "POST" : "GET",
            url: "https://api.example.com/items/\(index)?page=\(index)",
            headers: [HAR.Header(name: "Accept", value: "application/json")],
            postData: isPost ? HAR.PostData(mimeType: "application/json", text: #"{"index":\#(index)}"#) : nil
        )
        let binary = index % 3 == 0
        let body =
            binary
            ? Data((0..<32).map { UInt8(truncatingIfNeeded: $0 &* index) }) : Data(#"{"id":\#(index)}"#.utf8)
        let response = HAR.Response(
            status: 200,
            content: HAR.Content(
                body: body, mimeType: binary ? "application/octet-stream" : "application/json")
        )
        return HAR.Entry(
            startedDateTime: Date(timeIntervalSince1970: 1_700_000_000 + Double(index) / 8),
            request: request,
            response: response,
            timings: HAR.Timings(send: 1, wait: Double(index % 50), receive: 0.5)
        )
    }
}
