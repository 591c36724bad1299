import Errand
import ErrandReplay
import Foundation
import Testing

/// Secrets never reach a recorded cassette: every listed location is redacted, and a write that
/// would leak a redacted value elsewhere is refused.
@Suite struct ReplaySecretTests {
    let files: CassetteFolder
    let upstream = InMemoryDispatcher()

    init() throws {
        files = try CassetteFolder()
    }

    func recorder(
        _ mode: ReplayDispatcher.Mode = .newEpisodes,
        _ configure: (inout ReplayDispatcher.Configuration) -> Void = { _ in }
    ) -> ReplayDispatcher {
        ReplayDispatcher(
            cassette: files.cassette, baseURL: testBaseURL, mode: mode, upstream: upstream,
            configuration: testConfiguration(configure))
    }

    /// A request with a secret in every place the default redaction looks.
    static let login = RequestData.post("/login")
        .query("token", "SECRET-q-token").query("access_token", "SECRET-q-access")
        .query("refresh_token", "SECRET-q-refresh").query("id_token", "SECRET-q-id")
        .query("password", "SECRET-q-password").query("client_secret", "SECRET-q-client")
        .query("api_key", "SECRET-q-apikey").query("page", "1")
        .header("Authorization", "Bearer SECRET-h-auth").header("Proxy-Authorization", "Basic SECRET-h-proxy")
        .header("Cookie", "session=SECRET-c-session; theme=SECRET-c-theme")
        .body(
            .raw(
                Data(
                    #"""
                    {"user": "ada", "password": "SECRET-b-password",
                     "auth": {"client_secret": "SECRET-b-client", "nested": [{"api_key": "SECRET-b-apikey"}]},
                     "refresh_token": "SECRET-b-refresh", "id_token": {"raw": "SECRET-b-id"}, "token": 12345678}
                    """#.utf8), contentType: "application/json"))

    @Test func redactsEveryListedLocationAndStillReplays() async throws {
        defer { files.remove() }
        // Given a server that sets a cookie and returns tokens
        upstream.stub(
            .post, "/login",
            response: .data(
                Data(
                    #"{"access_token":"SECRET-r-access","session":{"refresh_token":"SECRET-r-refresh"}}"#.utf8
                ),
                contentType: "application/json", headers: ["Set-Cookie": "sid=SECRET-r-cookie; Path=/"]))
        upstream.stub(.post, "/form", response: .text("ok"))
        // When requests full of secrets are recorded
        let recorder = recorder(.once)
        _ = try await recorder.dispatch(Self.login)
        _ = try await recorder.dispatch(
            .post("/form").body(.form(["password": "SECRET-f-password", "user": "ada"])))
        // Then no secret is in the file, and placeholders stand where they were
        let file = String(decoding: try files.bytes(), as: UTF8.self)
        #expect(!file.contains("SECRET-"))
        #expect(!file.contains("12345678"))
        #expect(file.contains(#""value": "Bearer SECRET"#) == false)
        let entry = try files.read().entries[0]
        #expect(entry.request.value(forHeader: "Authorization") == "<redacted>")
        #expect(entry.request.value(forHeader: "Proxy-Authorization") == "<redacted>")
        #expect(entry.request.value(forHeader: "Cookie") == "<redacted>")
        #expect(entry.request.cookies.map(\.value) == ["<redacted>", "<redacted>"])
        #expect(entry.request.queryItems.filter { $0.value == "<redacted>" }.count == 7)
        #expect(entry.request.queryItems.last == HAR.QueryItem(name: "page", value: "1"))
        #expect(entry.response.value(forHeader: "Set-Cookie") == "<redacted>")
        #expect(entry.response.cookies.map(\.value) == ["<redacted>"])
        #expect(try files.read().entries[1].request.postData?.text == "password=%3Credacted%3E&user=ada")
        // When replayed with the same secrets, Then the redacted recordings still answer
        let replay = ReplayDispatcher(
            cassette: files.cassette, baseURL: testBaseURL, mode: .replayOnly, upstream: ForbiddenUpstream(),
            configuration: testConfiguration())
        #expect(try await replay.dispatch(Self.login).statusCode == 200)
        #expect(
            await replay.text(.post("/form").body(.form(["password": "SECRET-f-password", "user": "ada"])))
                == "ok")
    }

    @Test func redactsTheConfiguredNamesToo() async throws {
        defer { files.remove() }
        upstream.stub(.get, "/profile", response: .json(["ssn": "SECRET-ssn"]))
        let recorder = recorder {
            $0.redaction.headerNames.insert("X-API-Key")
            $0.redaction.bodyKeys.insert("ssn")
            $0.redaction.queryItemNames.insert("sig")
            $0.redaction.placeholder = "[hidden]"
        }
        _ = try await recorder.dispatch(
            .get("/profile").query("sig", "SECRET-sig").header("X-API-Key", "SECRET-key"))
        let file = String(decoding: try files.bytes(), as: UTF8.self)
        #expect(!file.contains("SECRET-"))
        #expect(file.contains(#""ssn": "[hidden]""#) || file.contains(#"{\"ssn\":\"[hidden]\"}"#))
    }

    @Test func hidesASecretThatTheServerEchoedElsewhere() async throws {
        defer { files.remove() }
        // Given a cassette with one recording, and a server that echoes the URL in its body
        upstream.stub(.get, "/ping", response: .text("pong"))
        upstream.stub(
            .get, "/anything",
            response: .json(["url": "https://api.example.com/anything?token=SECRET-echoed-1"]))
        let recorder = recorder()
        _ = try await recorder.dispatch(.get("/ping"))
        // When a request whose token the server echoes is recorded
        _ = try await recorder.dispatch(.get("/anything").query("token", "SECRET-echoed-1"))
        // Then the echo is hidden where it is, and the recording written
        #expect(try !files.bytes().contains("SECRET-echoed-1"))
        let entries = try files.read().entries
        #expect(entries.count == 2)
        #expect(entries[1].response.content.text?.contains("anything?token=<redacted>") == true)
    }

    @Test func aFailedWriteLeavesTheCassetteAsItWas() async throws {
        defer { files.remove() }
        // Given a cassette, and a recorder whose timestamps cannot be written (year 14,000)
        try files.write(archive([("GET", "https://api.example.com/ping", 200, "pong")]))
        let before = try files.bytes()
        upstream.stub(.get, "/users", response: .text("users"))
        let recorder = recorder { $0.now = { Date(timeIntervalSince1970: 380_000_000_000) } }
        // When a request is recorded, Then it fails with the writer's reason, and the file is whole
        let error = await #expect(throws: NetworkError.self) { try await recorder.dispatch(.get("/users")) }
        #expect(error?.code == .cassette)
        #expect(error?.message.contains("was not written to the cassette \(files.cassette.path)") == true)
        #expect(error?.message.contains("outside years 0 to 9999") == true)
        #expect((error?.underlyingError as? HARError)?.code == .unencodableValue)
        #expect(try files.bytes() == before)
        #expect(recorder.report.recordingCount == 1)
    }
}
