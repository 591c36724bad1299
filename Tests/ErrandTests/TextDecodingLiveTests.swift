import Errand
import ErrandTestSupport
import Foundation
import Testing

/// Text decoding over the wire: httpbin's UTF-8 page and its `Content-Type` echo, and the fault
/// server's bodies that are not UTF-8 or are in another charset.
@Suite(.enabled(if: LiveServer.httpbinAvailable && LiveServer.faultAvailable, LiveServer.skipReason))
struct TextDecodingLiveTests {
    let httpbin: URLSessionDispatcher
    let fault: URLSessionDispatcher

    init() throws {
        httpbin = URLSessionDispatcher(
            baseURL: try LiveServer.require(LiveServer.httpbin, "ERRAND_HTTPBIN_URL"))
        fault = URLSessionDispatcher(baseURL: try LiveServer.require(LiveServer.fault, "ERRAND_FAULT_URL"))
    }

    @Test func httpbinsUTF8PageDecodes() async throws {
        let text = try await Request<String>(.get("/encoding/utf8")).execute(dispatcher: httpbin)
        #expect(text.contains("Markus Kuhn [ˈmaʳkʊs kuːn]"))
    }

    @Test func httpbinsDeclaredLatin1CharsetIsRead() async throws {
        let (text, response) = try await Request<String>(
            .get("/response-headers").query("Content-Type", "text/plain; charset=iso-8859-1")
        ).executeWithResponse(dispatcher: httpbin)
        #expect(response.charset == "iso-8859-1")
        #expect(text.contains("charset=iso-8859-1"))
    }

    @Test func aBodyThatIsNotUTF8IsADecodingError() async throws {
        // Given the fault server's "café " followed by a latin1 "été" under charset=utf-8
        do {
            // When it is decoded into a String
            _ = try await Request<String>(.get("/invalid-utf8")).execute(dispatcher: fault)
            Issue.record("expected a decoding error")
        } catch let error as NetworkError {
            // Then the error names the first invalid byte and its offset
            #expect(error.code == .decoding)
            #expect(error.message.contains("byte 0xE9"), "\(error.message)")
            #expect(error.message.contains("byte offset 6"), "\(error.message)")
        }
    }

    @Test(arguments: [
        ("café €", "windows-1252", "windows-1252"),
        ("café", "latin1", "\"ISO-8859-1\""),
        ("h😀 é", "utf-16", "utf-16"),
        ("hé", "utf-16-be", "UTF-16BE"),
        ("plain", "ascii", "us-ascii"),
    ])
    func aDeclaredCharsetIsHonoured(text: String, codec: String, label: String) async throws {
        let request = RequestData.get("/encoded").query("text", text).query("charset", codec)
            .query("label", label)
        let decoded = try await Request<String>(request).execute(dispatcher: fault)
        #expect(decoded == text)
    }

    @Test func anUnknownCharsetIsNamed() async throws {
        let request = RequestData.get("/encoded").query("text", "hi").query("charset", "ascii")
            .query("label", "koi8-r")
        let error = await #expect(throws: NetworkError.self) {
            try await Request<String>(request).execute(dispatcher: fault)
        }
        #expect(error?.code == .decoding)
        #expect(error?.message.contains("\"koi8-r\"") == true)
    }
}
