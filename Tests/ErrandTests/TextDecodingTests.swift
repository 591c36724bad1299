import Errand
import ErrandTestSupport
import Foundation
import Testing

/// A `String` response is decoded strictly in the charset its `Content-Type` names, and JSON
/// in a declared charset or with a byte order mark decodes too.
@Suite struct TextDecodingTests {
    /// The response to `body` with `contentType`, as a dispatcher would deliver it.
    private func response(_ body: [UInt8], _ contentType: String? = nil) -> NetworkResponse {
        var headers: HTTPHeaders = [:]
        if let contentType { headers.add("Content-Type", contentType) }
        return NetworkResponse(statusCode: 200, headers: headers, body: Data(body))
    }

    /// The text a `String` request makes of `body`, or the decoding error.
    private func decodeText(_ body: [UInt8], _ contentType: String? = nil) async -> Result<
        String, NetworkError
    > {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(
            .get, "/text",
            response: .data(Data(body), headers: contentType.map { ["Content-Type": $0] } ?? [:]))
        let probe = CallbackProbe<String>()
        Request<String>(.get("/text")).execute(
            dispatcher: dispatcher, callbackQueue: nil, onSuccess: probe.onSuccess, onError: probe.onError)
        return await probe.first()
    }

    @Test func invalidUTF8IsADecodingErrorNamingTheByteOffset() async throws {
        // Given "café " in UTF-8 and then a latin1 "é" (0xE9), under charset=utf-8
        let body: [UInt8] = Array("café ".utf8) + [0xE9, 0x74, 0xE9]

        // When it is decoded into a String
        let result = await decodeText(body, "text/plain; charset=utf-8")

        // Then it fails as decoding, naming the byte and its offset, and keeps the response
        let error = try #require(result.failure)
        #expect(error.code == .decoding)
        #expect(error.message.contains("byte offset 6"), "\(error.message)")
        #expect(error.message.contains("0xE9"))
        #expect(error.message.contains("UTF-8"))
        #expect(error.response?.body == Data(body))
    }

    @Test func noCharsetMeansStrictUTF8() async throws {
        // Given a body without any Content-Type whose last byte is 0xFF
        let result = await decodeText(Array("ok".utf8) + [0xFF])

        // Then it fails at offset 2, saying UTF-8 was assumed
        let error = try #require(result.failure)
        #expect(error.code == .decoding)
        #expect(error.message.contains("byte offset 2"))
        #expect(error.message.contains("no charset given, so UTF-8"))
    }

    @Test func aBodyCutInsideASequenceSaysSo() async throws {
        let error = try #require(await decodeText(Array("ab".utf8) + [0xE2, 0x82]).failure)
        #expect(error.message.contains("ends inside a UTF-8 sequence at byte offset 2"), "\(error.message)")
    }

    @Test(arguments: [
        ("text/plain; charset=iso-8859-1", [0x63, 0x61, 0x66, 0xE9] as [UInt8], "café"),
        ("text/plain; charset=\"ISO-8859-1\"", [0xBD, 0x20, 0xFF], "½ ÿ"),
        ("text/plain;charset=Latin1", [0xE9], "é"),
        ("text/plain; charset=windows-1252", [0x80, 0x20, 0x93, 0x68, 0x69, 0x94], "€ “hi”"),
        ("text/plain; charset=us-ascii", [0x68, 0x69], "hi"),
        ("text/plain; charset=utf-16", [0xFF, 0xFE, 0x68, 0x00, 0xE9, 0x00], "hé"),
        ("text/plain; charset=utf-16", [0xFE, 0xFF, 0x00, 0x68, 0x00, 0xE9], "hé"),
        ("text/plain; charset=utf-16", [0x00, 0x68, 0x00, 0xE9], "hé"),
        ("text/plain; charset=UTF-16LE", [0x68, 0x00, 0x3D, 0xD8, 0x00, 0xDE], "h😀"),
        ("text/plain; charset=utf-16be", [0xFE, 0xFF, 0x00, 0x68], "h"),
        ("text/plain; charset=utf-8", [0xEF, 0xBB, 0xBF, 0x68, 0xC3, 0xA9], "hé"),
        ("text/html", [0x68, 0xC3, 0xA9], "hé"),
    ])
    func theCharsetOfContentTypeIsHonoured(contentType: String, body: [UInt8], expected: String) async throws
    {
        // Given a body in the charset its Content-Type names
        // When it is decoded into a String
        let text = try await decodeText(body, contentType).get()

        // Then it reads as written, without a byte order mark
        #expect(text == expected)
    }

    @Test(arguments: [
        (
            "text/plain; charset=us-ascii", [0x61, 0xE9] as [UInt8],
            "byte 0xE9 is not ASCII, at byte offset 1"
        ),
        ("text/plain; charset=windows-1252", [0x61, 0x62, 0x81], "byte 0x81 is not defined in windows-1252"),
        (
            "text/plain; charset=utf-16le", [0x68, 0x00, 0x69],
            "odd number of bytes, the last at byte offset 2"
        ),
        ("text/plain; charset=utf-16be", [0x00, 0x68, 0xDC, 0x00], "unpaired surrogate at byte offset 2"),
        ("text/plain; charset=utf-16", [0xFF, 0xFE, 0x00, 0xD8], "unpaired surrogate at byte offset 2"),
    ])
    func bytesInvalidInTheirCharsetAreNamed(contentType: String, body: [UInt8], expected: String) async throws
    {
        let error = try #require(await decodeText(body, contentType).failure)
        #expect(error.code == .decoding)
        #expect(error.message.contains(expected), "\(error.message)")
    }

    @Test func anUnknownCharsetIsADecodingErrorNamingIt() async throws {
        // Given a charset Errand does not decode
        let result = await decodeText(Array("hi".utf8), "text/plain; charset=KOI8-R")

        // Then it is refused by name, never guessed
        let error = try #require(result.failure)
        #expect(error.code == .decoding)
        #expect(error.message.contains("\"koi8-r\""))
        #expect(error.message.contains("decode(_:)"))
    }

    @Test func lossyTextIsThereForThoseWhoAskForIt() throws {
        // Given a request that overrides decode(_:) to take the lenient text
        struct LenientText: RequestType {
            typealias ResponseType = String
            var data: RequestData { .get("/text") }
            func decode(_ response: NetworkResponse) throws -> String { response.text }
        }
        let invalid = response(Array("ok".utf8) + [0xFF], "text/plain")

        // When it decodes bytes that are not UTF-8, and the strict form is asked for too
        let text = try LenientText().decode(invalid)

        // Then the lenient one replaces them, and the strict one still refuses
        #expect(text == "ok\u{FFFD}")
        #expect(throws: NetworkError.self) { try invalid.decodedText() }
        #expect(response([0xE9], "text/plain; charset=latin1").text == "é")
        #expect(response([0xE9], "text/plain; charset=latin1").charset == "latin1")
    }

    @Test func jsonInADeclaredCharsetOrWithAByteOrderMarkDecodes() throws {
        // Given the same JSON in latin1, UTF-16 under its charset, and UTF-8 with a BOM
        let utf8 = Array(#"{"id":1,"name":"Zoë"}"#.utf8)
        let latin1 = Array(#"{"id":1,"name":"Zo"#.utf8) + [0xEB] + Array(#""}"#.utf8)
        let units = #"{"id":1,"name":"Zoë"}"#.utf16
        let utf16: [UInt8] =
            [0xFF, 0xFE] + units.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let expected = User(id: 1, name: "Zoë")

        // Then each decodes to the same value
        #expect(
            try GetUser(id: 1).decode(response(latin1, "application/json; charset=iso-8859-1")) == expected)
        #expect(try GetUser(id: 1).decode(response(utf16, "application/json; charset=utf-16")) == expected)
        #expect(try GetUser(id: 1).decode(response(utf16, "application/json")) == expected)
        #expect(
            try GetUser(id: 1).decode(response([0xEF, 0xBB, 0xBF] + utf8, "application/json")) == expected)
        #expect(try GetUser(id: 1).decode(response(utf8, "application/json; charset=x-unknown")) == expected)
    }

    @Test func jsonThatIsNotUTF8SaysWhere() async throws {
        // Given JSON with a latin1 byte at offset 18 and no charset
        let latin1 = Array(#"{"id":1,"name":"Zo"#.utf8) + [0xEB] + Array(#""}"#.utf8)
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/users/1", response: .data(Data(latin1), contentType: "application/json"))
        let probe = CallbackProbe<User>()

        // When it is decoded
        GetUser(id: 1).execute(
            dispatcher: dispatcher, callbackQueue: nil, onSuccess: probe.onSuccess, onError: probe.onError)

        // Then the decoding error says the body is not UTF-8, and where
        let error = try await probe.failure()
        #expect(error.code == .decoding)
        #expect(error.message.contains("not valid UTF-8: byte 0xEB"), "\(error.message)")
        #expect(error.message.contains("byte offset 18"), "\(error.message)")
    }
}

extension Result {
    /// The error of a failure.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
