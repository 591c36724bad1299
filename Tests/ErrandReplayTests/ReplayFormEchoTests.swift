import Errand
import ErrandReplay
import Foundation
import Testing

/// A form whose field names quote a secret the same request sends elsewhere, as a Fiddler 2.3
/// export holds it (`postData.params` only, no `text`): it matches its own recording, whether
/// the recording is the export itself, the export written as a cassette, or a recording made
/// here.
@Suite struct ReplayFormEchoTests {
    static let token = "eyJhbGciOiJIUzI1NiJ9.c2Vzc2lvbi0xMjM.k3Yq8Zp0"

    /// The export's form POST as the app sent it.
    static func extend(token: String = token, client: String = "web") -> RequestData {
        RequestData.post("http://app.example.com/api/session/extend")
            .header("Authorization", "Bearer \(token)")
            .body(
                .form([
                    URLQueryItem(name: "access_token", value: token),
                    URLQueryItem(name: #"{"access_token":"\#(token)","client":"\#(client)"}"#, value: ""),
                    URLQueryItem(name: "minutes", value: "30"),
                ]))
    }

    func replay(_ cassette: URL) -> ReplayDispatcher {
        ReplayDispatcher(
            cassette: cassette, mode: .replayOnly, upstream: ForbiddenUpstream(),
            configuration: testConfiguration())
    }

    @Test func theExportReplaysWhole() async throws {
        // Given the export as it came from Fiddler
        let replay = replay(try Fixtures.url("fiddler-form-params.har"))
        // When both of its requests are sent again
        let profile = try await replay.dispatch(
            .get("http://app.example.com/api/profile").header("Authorization", "Bearer \(Self.token)"))
        let extended = try await replay.dispatch(Self.extend())
        // Then each gets its recording
        #expect(profile.text == #"{"id":7,"name":"bob"}"#)
        #expect(extended.text == #"{"extended":true}"#)
        try replay.assertAllPlayed()
    }

    @Test func theExportWrittenAsACassetteStillMatchesItsRequests() async throws {
        // Given the export written as a cassette, its secrets and their echoes redacted
        let files = try CassetteFolder()
        defer { files.remove() }
        try HAR(contentsOf: try Fixtures.url("fiddler-form-params.har")).write(to: files.cassette)
        let written = try files.bytes()
        #expect(!written.contains(Self.token))
        // When the form is sent again, with the token in its header, a field and a field's name
        let extended = try await replay(files.cassette).dispatch(Self.extend())
        // Then it matches its recording
        #expect(extended.text == #"{"extended":true}"#)
    }

    @Test func aFormRecordedHereReplaysWithAnotherToken() async throws {
        // Given the form recorded through a replay dispatcher from an upstream
        let files = try CassetteFolder()
        defer { files.remove() }
        let upstream = InMemoryDispatcher()
        upstream.stub(.post, "/api/session/extend", response: .json(["extended": true]))
        let recorder = ReplayDispatcher(
            cassette: files.cassette, mode: .recordAll, upstream: upstream, configuration: testConfiguration()
        )
        _ = try await recorder.dispatch(Self.extend())
        // When it is sent again, and once more with the next session's token
        let same = try await replay(files.cassette).dispatch(Self.extend())
        let renewed = try await replay(files.cassette).dispatch(
            Self.extend(token: "eyJhbGciOiJIUzI1NiJ9.bmV4dA.Zz9x0Qw"))
        // Then both match: a secret's value is never compared
        #expect(same.text == #"{"extended":true}"#)
        #expect(renewed.text == #"{"extended":true}"#)
    }

    @Test func theRestOfAFieldNameStillCounts() async throws {
        // Given the export written as a cassette
        let files = try CassetteFolder()
        defer { files.remove() }
        try HAR(contentsOf: try Fixtures.url("fiddler-form-params.har")).write(to: files.cassette)
        // When the form names another client next to the token
        let error = await #expect(throws: NetworkError.self) {
            try await replay(files.cassette).dispatch(Self.extend(client: "mobile\r\n"))
        }
        // Then it does not match, and the miss names the field without the token
        #expect(error?.code == .unmatchedRequest)
        #expect(error.map { "\($0)" }?.contains(Self.token) == false)
    }
}
