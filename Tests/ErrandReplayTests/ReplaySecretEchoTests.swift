import Errand
import ErrandReplay
import Foundation
import Testing

/// A server that echoes a secret somewhere redaction by name does not look, in any spelling,
/// never gets it written to a cassette in clear: the echo is hidden, or the write refused.
@Suite struct ReplaySecretEchoTests {
    let files: CassetteFolder
    let upstream = InMemoryDispatcher()

    init() throws {
        files = try CassetteFolder()
    }

    /// Records `request` answered by `answer` (JSON) and gives the written file.
    func record(_ request: RequestData, answer: String) async throws -> String {
        upstream.stub(
            request.method, request.path, response: .data(Data(answer.utf8), contentType: "application/json"))
        let recorder = ReplayDispatcher(
            cassette: files.cassette, baseURL: testBaseURL, mode: .recordAll, upstream: upstream,
            configuration: testConfiguration())
        _ = try await recorder.dispatch(request)
        return String(decoding: try files.bytes(), as: UTF8.self)
    }

    @Test func hidesTheBareTokenOfABearerHeaderEchoedInAnError() async throws {
        defer { files.remove() }
        // Given a server that quotes the token of the Authorization header
        let file = try await record(
            .get("/me").header("Authorization", "Bearer secret-xyz"),
            answer: #"{"detail": "token secret-xyz expired"}"#)
        // Then the token is not in the file, and the answer reads as redacted
        #expect(!file.contains("secret-xyz"))
        #expect(
            try files.read().entries[0].response.content.text == #"{"detail": "token <redacted> expired"}"#)
    }

    @Test func hidesTheCredentialsOfAnyScheme() async throws {
        defer { files.remove() }
        let file = try await record(
            .get("/me").header("Authorization", "Token tok-abc-123"), answer: #"{"seen": "tok-abc-123"}"#)
        #expect(!file.contains("tok-abc-123"))
    }

    @Test func hidesTheUserAndPasswordOfBasicCredentials() async throws {
        defer { files.remove() }
        // Given Basic credentials, and a server that echoes the user, the password and the pair
        let basic = "Basic " + Data("ada-lovelace:correct-horse".utf8).base64EncodedString()
        let file = try await record(
            .get("/login").header("Authorization", basic),
            answer:
                #"{"user": "ada-lovelace", "hint": "correct-horse", "pair": "ada-lovelace:correct-horse"}"#)
        // Then none of them is in the file
        #expect(!file.contains("ada-lovelace"))
        #expect(!file.contains("correct-horse"))
        #expect(
            file.contains(#"{\"user\": \"<redacted>\", \"hint\": \"<redacted>\", \"pair\": \"<redacted>\"}"#))
    }

    @Test func hidesAPercentEncodedEcho() async throws {
        defer { files.remove() }
        // Given a secret query value that the server echoes as it came in the URL
        let file = try await record(
            .get("/search").query("api_key", "s3cr3t/with space&more"),
            answer: #"{"url": "https://api.example.com/search?api_key=s3cr3t%2Fwith%20space%26more", "#
                + #""form": "s3cr3t%2Fwith+space%26more"}"#)
        // Then no spelling of it is in the file, and the URL reads as redacted
        #expect(!file.contains("s3cr3t"))
        #expect(file.contains("api_key=%3Credacted%3E\\\", \\\"form\\\": \\\"%3Credacted%3E"))
    }

    @Test func hidesJSONEscapedEchoes() async throws {
        defer { files.remove() }
        // Given secrets that a server echoes with `/` written `\/` and `<`, `>`, `&`, `é` as `\u` escapes
        let file = try await record(
            .get("/x").header("X-API-Key", "secret/xyz-1").header(
                "Proxy-Authorization", "Bearer tok<en>&é-2"),
            answer:
                #"{"a": "secret\/xyz-1", "b": "tok\u003cen\u003e\u0026\u00e9-2", "c": "tok\u003Cen\u003E\u0026\u00E9-2"}"#
        )
        // Then none is in the file, and the escaped placeholders stand in the answer
        #expect(!file.contains("xyz-1"))
        #expect(!file.contains("en\\\\u003"))
        #expect(
            try files.read().entries[0].response.content.text
                == #"{"a": "<redacted>", "b": "<redacted>", "c": "<redacted>"}"#)
    }

    @Test func refusesABase64EchoNamingTheEntryAndFieldButNotTheSecret() async throws {
        defer { files.remove() }
        // Given a cassette with one recording, and a server that echoes a token inside base64
        upstream.stub(.get, "/ping", response: .text("pong"))
        let recorder = ReplayDispatcher(
            cassette: files.cassette, baseURL: testBaseURL, mode: .newEpisodes, upstream: upstream,
            configuration: testConfiguration())
        _ = try await recorder.dispatch(.get("/ping"))
        let before = try files.bytes()
        for prefix in ["", "a", "ab"] {
            let blob = Data(#"{"prefix":"\#(prefix)","token":"secret-xyz-123"}"#.utf8).base64EncodedString()
            upstream.stub(
                .get, "/state",
                response: .data(Data(#"{"state": "\#(blob)"}"#.utf8), contentType: "application/json"))
            // When a request carrying the token is recorded
            let error = await #expect(throws: NetworkError.self) {
                try await recorder.dispatch(.get("/state").header("Authorization", "Bearer secret-xyz-123"))
            }
            // Then the write is refused as a cassette problem, saying where, never what
            #expect(error?.code == .cassette)
            let message = error?.message ?? ""
            #expect(message.contains("appears base64-encoded at line"))
            #expect(message.contains("entry 1, field response.content.text"))
            #expect(!message.contains("secret-xyz-123"))
            #expect(!message.contains(blob))
            #expect(try files.bytes() == before)
        }
    }

    @Test func refusesASecretInABinaryBody() async throws {
        defer { files.remove() }
        // Given a binary answer (written in base64 by the cassette) that holds the token's bytes
        let bytes = Data([0xFF, 0xFE, 0x00]) + Data("secret-xyz-123".utf8) + Data([0x80])
        upstream.stub(.get, "/blob", response: .data(bytes, contentType: "application/octet-stream"))
        let recorder = ReplayDispatcher(
            cassette: files.cassette, baseURL: testBaseURL, mode: .recordAll, upstream: upstream,
            configuration: testConfiguration())
        let error = await #expect(throws: NetworkError.self) {
            try await recorder.dispatch(.get("/blob").header("Authorization", "Bearer secret-xyz-123"))
        }
        #expect(error?.code == .cassette)
        #expect(!FileManager.default.fileExists(atPath: files.cassette.path))
    }
}
