import ErrandReplay
import Foundation
import Testing

/// The rule that turns body `text` without an `encoding` into bytes, and its mirror in the writer.
@Suite struct HARBodyDecodingTests {
    /// One case of the Latin-1 decision: the text as exported, its MIME type, the bytes meant.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let text: String
        let mimeType: String
        let bytes: [UInt8]

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "ASCII", text: "a=1&b=2", mimeType: "", bytes: Array("a=1&b=2".utf8)),
        Case(
            name: "above U+00FF is UTF-8", text: "日本", mimeType: "application/octet-stream",
            bytes: Array("日本".utf8)),
        Case(
            name: "browser text is UTF-8", text: "café", mimeType: "text/plain",
            bytes: [0x63, 0x61, 0x66, 0xC3, 0xA9]),
        Case(name: "no MIME type, UTF-8", text: "naïve", mimeType: "", bytes: Array("naïve".utf8)),
        Case(
            name: "charset utf-8 wins", text: "Ã©", mimeType: "text/plain; charset=UTF-8",
            bytes: Array("Ã©".utf8)),
        Case(
            name: "charset latin-1 wins", text: "café", mimeType: "text/plain; charset=\"ISO-8859-1\"",
            bytes: [0x63, 0x61, 0x66, 0xE9]),
        Case(
            name: "JSON is UTF-8", text: "{\"a\":\"Ã©\"}", mimeType: "application/vnd.api+json",
            bytes: Array("{\"a\":\"Ã©\"}".utf8)),
        Case(
            name: "control bytes are binary", text: "\u{00}\u{01}\u{FF}",
            mimeType: "application/octet-stream", bytes: [0x00, 0x01, 0xFF]),
        Case(name: "C1 controls are binary", text: "\u{85}\u{E9}", mimeType: "", bytes: [0x85, 0xE9]),
        Case(
            name: "mojibake is UTF-8 read as Latin-1", text: "cafÃ©", mimeType: "text/plain",
            bytes: [0x63, 0x61, 0x66, 0xC3, 0xA9]),
        Case(
            name: "tabs and newlines are text", text: "é\t\r\n", mimeType: "text/plain",
            bytes: [0xC3, 0xA9, 0x09, 0x0D, 0x0A]),
    ]

    @Test(arguments: cases)
    func decodesUnencodedText(_ testCase: Case) throws {
        // Given a request body written as text with no encoding
        let har = try HAR(data: Self.document(text: testCase.text, mimeType: testCase.mimeType))
        // Then the body is the bytes meant
        #expect(har.entries[0].request.body.map(Array.init) == testCase.bytes)
        #expect(har.entries[0].response.body.map(Array.init) == testCase.bytes)
    }

    @Test(arguments: cases)
    func writesEveryBodySoItReadsBackExactly(_ testCase: Case) throws {
        // Given a body of each kind, When written and read back, Then the bytes are the same
        let body = Data(testCase.bytes)
        let har = Self.archive(body: body, mimeType: testCase.mimeType)
        let reread = try HAR(data: har.encoded())
        #expect(reread.entries[0].request.body == body)
        #expect(reread.entries[0].response.body == body)
        #expect(try reread.encoded() == har.encoded())
    }

    @Test func writesTextAsTextAndBinaryAsBase64() throws {
        let text = try Self.written(body: Data("{\"name\":\"Zoë\"}".utf8), mimeType: "application/json")
        #expect(text.contains(#""text": "{\"name\":\"Zoë\"}""#))
        #expect(!text.contains("\"encoding\""))
        let binary = try Self.written(body: Data([0x00, 0xFF, 0x10]), mimeType: "application/octet-stream")
        #expect(binary.contains(#""text": "AP8Q""#))
        #expect(binary.contains(#""encoding": "base64""#))
        let latin1 = try Self.written(
            body: Data([0x63, 0x61, 0x66, 0xE9]), mimeType: "text/plain; charset=iso-8859-1")
        #expect(latin1.contains(#""text": "café""#))
        #expect(!latin1.contains("\"encoding\""))
        // UTF-8 that would read back as Latin-1 mojibake is written as base64 instead.
        let ambiguous = try Self.written(body: Data("Ã©".utf8), mimeType: "text/plain")
        #expect(ambiguous.contains(#""encoding": "base64""#))
    }

    @Test func leavesAnAbsentBodyAbsent() throws {
        let har = Self.archive(body: nil, mimeType: "text/plain")
        let written = try String(decoding: har.encoded(), as: UTF8.self)
        #expect(!written.contains("\"text\""))
        #expect(try HAR(data: har.encoded()).entries[0].response.body == nil)
    }

    static func document(text: String, mimeType: String) throws -> Data {
        let body: [String: Any] = ["mimeType": mimeType, "text": text]
        let object: [String: Any] = [
            "log": [
                "creator": ["name": "test", "version": "1"],
                "entries": [
                    [
                        "startedDateTime": "2024-01-31T12:00:00Z",
                        "request": ["method": "POST", "url": "https://a.example/", "postData": body],
                        "response": ["status": 200, "content": body],
                    ]
                ],
            ]
        ]
        return try JSONSerialization.data(withJSONObject: object)
    }

    static func archive(body: Data?, mimeType: String) -> HAR {
        let request = HAR.Request(
            method: "POST",
            url: "https://a.example/",
            postData: HAR.PostData(mimeType: mimeType, body: body)
        )
        let response = HAR.Response(status: 200, content: HAR.Content(body: body, mimeType: mimeType))
        let entry = HAR.Entry(
            startedDateTime: Date(timeIntervalSince1970: 0), request: request, response: response)
        return HAR(creator: HAR.Creator(name: "test", version: "1"), entries: [entry])
    }

    static func written(body: Data, mimeType: String) throws -> String {
        try String(decoding: archive(body: body, mimeType: mimeType).encoded(), as: UTF8.self)
    }
}
