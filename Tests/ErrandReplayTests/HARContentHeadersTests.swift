import ErrandReplay
import Foundation
import Testing

/// Bodies are held decoded, so the headers that describe an encoding are corrected when a
/// file is read and when one is written.
@Suite struct HARContentHeadersTests {
    @Test func dropsTheEncodingAndSetsTheLengthOfADecodedBody() throws {
        // Given a response stored decoded under the headers of its gzip wire form
        let body = Data(#"{"gzipped":true}"#.utf8)
        let har = Self.archive(
            status: 200, body: body,
            headers: [
                ("Content-Type", "application/json"), ("Content-Encoding", "gzip"), ("Content-Length", "12"),
            ])
        // When written and read back
        let written = try har.encoded(redaction: .none)
        let reread = try HAR(data: written).entries[0].response
        // Then the file and the value hold headers that describe the stored body
        #expect(!written.contains("Content-Encoding"))
        #expect(written.contains(#""value": "16""#))
        #expect(reread.headers.map(\.name) == ["Content-Type", "Content-Length"])
        #expect(reread.value(forHeader: "Content-Length") == "16")
        #expect(reread.body == body)
    }

    @Test func correctsAStaleFileWhenReadingIt() throws {
        // Given a file as mitmproxy writes it: brotli named, the body decoded
        let json = #"""
            {"log": {"entries": [{"startedDateTime": "2024-01-01T00:00:00Z", "time": 1,
              "request": {"method": "GET", "url": "https://a.example/"},
              "response": {"status": 200, "headers": [
                {"name": "content-encoding", "value": "br"}, {"name": "content-length", "value": "3"}],
                "content": {"mimeType": "text/plain", "text": "hello world"}}}]}}
            """#
        // When read
        let response = try HAR(data: Data(json.utf8)).entries[0].response
        // Then the encoding is gone and the length is the body's
        #expect(response.value(forHeader: "Content-Encoding") == nil)
        #expect(response.value(forHeader: "Content-Length") == "11")
    }

    @Test func keepsTheHeadersOfEmptyAndStillCompressedBodies() throws {
        // Given a HEAD-like empty body and a gzip body that is still compressed
        let head = Self.archive(
            status: 200, body: Data(), headers: [("Content-Encoding", "gzip"), ("Content-Length", "221")])
        let compressed = Data([0x1F, 0x8B, 0x08, 0x00, 0x01, 0x02])
        let raw = Self.archive(
            status: 200, body: compressed, headers: [("Content-Encoding", "gzip"), ("Content-Length", "6")])
        let identity = Self.archive(
            status: 200, body: Data("abc".utf8),
            headers: [("Content-Encoding", "identity"), ("Content-Length", "9")])
        // When written and read back, Then their headers are as they were
        let rereadHead = try HAR(data: head.encoded()).entries[0].response
        #expect(rereadHead.value(forHeader: "Content-Encoding") == "gzip")
        #expect(rereadHead.value(forHeader: "Content-Length") == "221")
        let rereadRaw = try HAR(data: raw.encoded()).entries[0].response
        #expect(rereadRaw.value(forHeader: "Content-Encoding") == "gzip")
        #expect(rereadRaw.body == compressed)
        let rereadIdentity = try HAR(data: identity.encoded()).entries[0].response
        #expect(rereadIdentity.value(forHeader: "Content-Length") == "9")
    }

    static func archive(status: Int, body: Data, headers: [(String, String)]) -> HAR {
        let response = HAR.Response(
            status: status, headers: headers.map { HAR.Header(name: $0.0, value: $0.1) },
            content: HAR.Content(body: body, mimeType: "application/json"))
        let entry = HAR.Entry(
            startedDateTime: Date(timeIntervalSince1970: 0),
            request: HAR.Request(method: "GET", url: "https://api.example.com/gzip"), response: response)
        return HAR(creator: HAR.Creator(name: "test", version: "1"), entries: [entry])
    }
}
