import Errand
import ErrandTestSupport
import Foundation
import Testing

@testable import ErrandReplay

/// A server that answers each request with a secret of its own, and echoes the request's token.
struct SecretEchoServer: NetworkDispatcher {
    static func secrets(of index: Int) -> [String] {
        [
            "bearer-secret-\(index)-abcdef", "cookie-secret-\(index)-abcdef", "query-secret-\(index)-abcdef",
            "json-secret-\(index)-abcdef", "form-secret-\(index)-abcdef", "multipart-secret-\(index)-abcdef",
            "refresh-secret-\(index)-abcdef", "setcookie-secret-\(index)-abcdef",
        ]
    }

    /// The request number `index`, with secrets in every place the vocabulary covers.
    static func request(_ index: Int) -> RequestData {
        let secrets = secrets(of: index)
        let body: RequestData.Body
        switch index % 3 {
        case 0:
            body = .json(["user": ["profile": ["password": secrets[3], "name": "Ada"]]])
        case 1:
            body = .form(["password": secrets[4], "name": "Ada"])
        default:
            body = .multipart([.field("client_secret", secrets[5]), .field("name", "Ada")])
        }
        return RequestData.post("/sessions/\(index)")
            .header("Authorization", "Bearer \(secrets[0])")
            .header("Cookie", "session=\(secrets[1]); theme=dark")
            .query("access_token", secrets[2])
            .body(body)
    }

    func dispatch(
        request: RequestData, onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        let index = Int(request.path.split(separator: "/").last ?? "") ?? -1
        let secrets = Self.secrets(of: index)
        let body = #"{"data":{"refresh_token":"\#(secrets[6])","seen":"\#(secrets[0])"},"ok":true}"#
        onSuccess(
            NetworkResponse(
                statusCode: 200,
                headers: [
                    "Content-Type": "application/json", "Set-Cookie": "sid=\(secrets[7]); Path=/; HttpOnly",
                ],
                body: Data(body.utf8), url: URL(string: "https://api.example.com\(request.path)"),
                request: request))
        return CancellableAction.none
    }
}

@Suite struct FlightRecorderSecretTests {
    @Test func keepsExactlyTheLastExchangesAndNoSecretInAnySpelling() async throws {
        // Given a recorder of 50 entries around a server that answers with secrets and echoes
        let recorder = FlightRecorder(
            FlightRecorder.Configuration(maximumEntries: 50, baseURL: URL(string: "https://api.example.com")))
        let dispatcher = SecretEchoServer().flightRecording(into: recorder)

        // When 1,000 requests with secrets everywhere go through it
        for index in 0..<1_000 {
            let probe = CallbackProbe<NetworkResponse>()
            dispatcher.dispatch(
                request: SecretEchoServer.request(index), onSuccess: probe.onSuccess, onError: probe.onError)
            _ = try await probe.first().get()
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "flight-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: file) }
        try recorder.write(to: file)

        // Then the file opens with the HAR reader and holds the last 50, in order
        let har = try HAR(contentsOf: file)
        #expect(har.entries.count == 50)
        #expect(
            har.entries.map(\.request.urlWithoutQuery)
                == (950..<1_000).map { "https://api.example.com/sessions/\($0)" })
        #expect(har.entries.allSatisfy { $0.response.status == 200 })
        // and no secret of the kept requests, in any spelling, is in the file, nor any other
        // request's secret as it was sent
        let secrets = Set((950..<1_000).flatMap(SecretEchoServer.secrets))
        let written = try Data(contentsOf: file)
        #expect(HARSecretScan.firstLeak(of: secrets, in: written) == nil)
        #expect(!String(decoding: written, as: UTF8.self).contains("-secret-"))  // all secrets hold it
        // nor in memory: the kept entries, written with no redaction at all, hold none either
        let kept = try recorder.har().encoded(redaction: .none)
        #expect(HARSecretScan.firstLeak(of: secrets, in: kept) == nil)
        // while what is not secret is kept
        let last = try #require(har.entries.last)
        #expect(last.request.headers.contains { $0.name == "Authorization" && $0.value == "<redacted>" })
        #expect(last.response.content.text?.contains(#""ok":true"#) == true)
    }

    @Test func anEchoThatCannotBeHiddenInPlaceDropsTheBodyWithANote() async throws {
        // Given a server that echoes the token in a text body
        let server = InMemoryDispatcher()
        server.stub(.get, "/debug", response: .text("your token is bearer-secret-1-abcdef"))
        let recorder = FlightRecorder(
            FlightRecorder.Configuration(baseURL: URL(string: "https://api.example.com")))

        // When a request with that token is recorded
        _ = try await recorder.recordedResponse(
            .get("/debug").header("Authorization", "Bearer bearer-secret-1-abcdef"), through: server)

        // Then the body is not kept, and a note says why
        let entry = try #require(recorder.har().entries.first)
        #expect(entry.response.content.body == nil)
        #expect(entry.response.content.comment?.contains("repeats a redacted secret") == true)
        #expect(
            HARSecretScan.firstLeak(
                of: ["bearer-secret-1-abcdef"], in: try recorder.har().encoded(redaction: .none)) == nil)
    }
}

extension FlightRecorder {
    /// Sends `request` through `server` recorded into this recorder, and waits for the answer.
    func recordedResponse(_ request: RequestData, through server: any NetworkDispatcher) async throws
        -> NetworkResponse
    {
        try await server.flightRecording(into: self).dispatch(request)
    }
}
