import Errand
import ErrandReplay
import ErrandTestSupport
import Foundation
import Testing

/// A request body that cannot be read as its type says is redacted in flight recordings and
/// cassettes as log lines redact it: its secrets found as far as it reads, and replaced where
/// it is kept and where the answer echoes it; withheld whole when they may not all be found.
@Suite struct CutShortBodyRecordingTests {
    /// A JSON body cut short after its password.
    static let cutShort = #"{"password": "S3cretPw9", "#
    /// The same, untyped, behind a byte order mark.
    static let withMark = "\u{FEFF}" + cutShort
    /// JSON broken before its secret (no colon), which no read can trust.
    static let broken = #"{"note" "x", "password": "S3cretPw9"}"#

    /// Answers every request with its own body, as JSON.
    static let echoing = URLCredentialRecordingTests.AnsweringFrom(url: nil) { request in
        String(decoding: request.body?.data ?? Data(), as: UTF8.self)
    }

    static func login(_ body: String, contentType: String) -> RequestData {
        .post("https://h.example/login").body(.raw(Data(body.utf8), contentType: contentType))
    }

    @Test(arguments: [("application/json", cutShort), ("", withMark)])
    func aFlightRecordingReplacesTheSecretsOfABodyCutShort(contentType: String, body: String) async throws {
        // Given a recorder over a server that echoes the body it is sent
        let recorder = FlightRecorder()
        let dispatcher = Self.echoing.flightRecording(into: recorder)

        // When a body cut short after its password is sent
        _ = try await dispatcher.dispatch(Self.login(body, contentType: contentType))

        // Then neither the request nor the echo keeps the password, and the rest is kept
        let entry = try #require(recorder.har().log.entries.first)
        let sent = try #require(entry.request.postData?.text)
        #expect(sent.contains(#"{"password": "<redacted>", "#), "\(sent)")
        #expect(!sent.contains("S3cretPw9"))
        #expect(!(entry.response.content.text ?? "").contains("S3cretPw9"))
        #expect(!(try URLCredentialRecordingTests.written(recorder)).contains("S3cretPw9"))
    }

    @Test func aBodyWhoseSecretsCannotAllBeFoundIsWithheldWhole() async throws {
        // Given a recorder
        let recorder = FlightRecorder()
        let dispatcher = Self.echoing.flightRecording(into: recorder)

        // When a JSON body broken before its secret is sent
        _ = try await dispatcher.dispatch(Self.login(Self.broken, contentType: "application/json"))

        // Then the placeholder stands for the whole body
        let entry = try #require(recorder.har().log.entries.first)
        #expect(entry.request.postData?.text == "<redacted>")
        #expect(!(try URLCredentialRecordingTests.written(recorder)).contains("S3cretPw9"))
    }

    @Test(arguments: [("application/json", cutShort), ("", withMark)])
    func aCassetteReplacesTheSecretsOfABodyCutShortAndStillReplays(contentType: String, body: String)
        async throws
    {
        let files = try CassetteFolder()
        defer { files.remove() }
        // Given a recording dispatcher over a server that echoes the body it is sent
        let recorder = ReplayDispatcher(
            cassette: files.cassette, baseURL: nil, mode: .recordAll, upstream: Self.echoing,
            configuration: testConfiguration())

        // When a body cut short after its password is recorded
        _ = try await recorder.dispatch(Self.login(body, contentType: contentType))

        // Then the file keeps no spelling of it, and the body shows the placeholder in its place
        let file = String(decoding: try files.bytes(), as: UTF8.self)
        #expect(!file.contains("S3cretPw9"), "\(file)")
        let entry = try #require(try files.read().log.entries.first)
        #expect(entry.request.postData?.text?.contains(#""password": "<redacted>""#) == true)

        // And the same request is answered from the cassette
        let replay = ReplayDispatcher(
            cassette: files.cassette, baseURL: nil, mode: .replayOnly, upstream: ForbiddenUpstream(),
            configuration: testConfiguration())
        #expect(try await replay.dispatch(Self.login(body, contentType: contentType)).statusCode == 200)
    }
}
