import ErrandReplay
import Foundation
import Testing

/// Large cassettes load: a sanity check that reading and writing stay linear, with no timing.
@Suite struct HARLoadTests {
    @Test func readsAndWritesTenThousandEntries() throws {
        // Given 10,000 varied entries
        let entries = (0..<10_000).map(Self.entry)
        let har = HAR(creator: HAR.Creator(name: "Errand", version: "0.1"), entries: entries)
        // When written and read back
        let data = try har.encoded()
        let reread = try HAR(data: data)
        // Then every entry is there, in order, bodies intact
        #expect(reread.entries.count == 10_000)
        #expect(reread.entries[9_999].request.url == "https://api.example.com/items/9999?page=9999")
        #expect(reread.entries[4_242].response.body == Self.entry(4_242).response.body)
        #expect(reread.entries[4_243].request.body == Self.entry(4_243).request.body)
        #expect(try reread.encoded() == data)
    }

    @Test func readsTheRealCaptureRepeatedAHundredTimes() throws {
        // Given the real capture's entries repeated into one 2,000-entry file of 12 MB
        let capture = try HAR(contentsOf: Fixtures.url("mitmproxy-httpbin.har"))
        var big = capture
        big.entries = Array(repeating: capture.entries, count: 100).flatMap { $0 }
        let data = try big.encoded(redaction: .none)
        // When read, Then all of it is there
        let reread = try HAR(data: data)
        #expect(reread.entries.count == 2_000)
        #expect(reread.entries[1_987].request.body == Data((0...255).map { UInt8($0) }))
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
