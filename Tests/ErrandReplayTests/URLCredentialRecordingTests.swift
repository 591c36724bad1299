import Errand
import ErrandReplay
import ErrandTestSupport
import Foundation
import Testing

/// A URL's user info, its `key` query item, and the URL that finally answered are redacted in
/// flight recordings and cassettes, and their echoes hidden, as every other credential is.
@Suite struct URLCredentialRecordingTests {
    static let password = "S3cretPw9"
    static let absolute = "https://user:S3cretPw9@api.example.com/users/42"
    static let basic = Data("user:S3cretPw9".utf8).base64EncodedString()
    /// A body that echoes the password bare, in the pair, percent-encoded and inside `Basic`.
    static let echo =
        #"{"url": "\#(absolute)", "auth": "Basic \#(basic)", "pw": "S3cretPw9", "pair": "user%3AS3cretPw9"}"#

    /// Answers every request with `body`, from `url`, as a transport does after a redirect.
    struct AnsweringFrom: NetworkDispatcher {
        let url: URL?
        let body: @Sendable (RequestData) -> String

        init(url: URL?, body: String) {
            self.url = url
            self.body = { _ in body }
        }

        init(url: URL?, body: @escaping @Sendable (RequestData) -> String) {
            self.url = url
            self.body = body
        }

        func dispatch(
            request: RequestData, onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
            onError: @escaping @Sendable (NetworkError) -> Void
        ) -> any Cancellable {
            onSuccess(
                NetworkResponse(
                    statusCode: 200, headers: ["Content-Type": "application/json"],
                    body: Data(body(request).utf8),
                    url: url, request: request))
            return CancellableAction.none
        }
    }

    /// The bytes of `recorder`'s recording as written to a file.
    static func written(_ recorder: FlightRecorder) throws -> String {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("flight.har")
        try recorder.write(to: file)
        return String(decoding: try Data(contentsOf: file), as: UTF8.self)
    }

    @Test func aFlightRecordingHidesUserInfoOfThePathAndOfTheBaseURLAndItsEchoes() async throws {
        // Given a recorder whose base URL carries user info, over a server that echoes the
        // credentials each request was sent with
        let recorder = FlightRecorder(
            FlightRecorder.Configuration(
                baseURL: URL(string: "https://base-user:B4sePassw0rd@api.example.com")))
        let baseBasic = Data("base-user:B4sePassw0rd".utf8).base64EncodedString()
        let server = AnsweringFrom(url: nil) { request in
            request.path.hasPrefix("https")
                ? Self.echo : #"{"auth": "Basic \#(baseBasic)", "pw": "B4sePassw0rd"}"#
        }
        let dispatcher = server.flightRecording(into: recorder)

        // When a request to an absolute URL with user info, and a relative one, are recorded
        _ = try await dispatcher.dispatch(.get(Self.absolute))
        _ = try await dispatcher.dispatch(.get("/users/43"))

        // Then no spelling of either password is kept or written, and the URLs show the placeholder
        let urls = recorder.har().log.entries.map(\.request.url)
        #expect(
            urls == [
                "https://%3Credacted%3E@api.example.com/users/42",
                "https://%3Credacted%3E@api.example.com/users/43",
            ])
        let file = try Self.written(recorder)
        for spelling in [Self.password, Self.basic, "B4sePassw0rd", baseBasic] {
            #expect(!file.contains(spelling), "\(spelling)")
        }
    }

    @Test func theURLThatAnsweredIsRecordedRedactedAndItsSecretHiddenWhereQuoted() async throws {
        // Given a server that answered from the URL a redirect led to, and quotes its key
        let final = try #require(URL(string: "https://api.example.com/files/1?api_key=K-FINAL-123456&v=1"))
        let server = AnsweringFrom(
            url: final, body: #"{"download": "\#(final.absoluteString)", "k": "K-FINAL-123456"}"#)
        let recorder = FlightRecorder(
            FlightRecorder.Configuration(baseURL: URL(string: "https://api.example.com")))

        // When the request to the first URL is recorded
        _ = try await server.flightRecording(into: recorder).dispatch(.get("/files/latest"))

        // Then the file keeps the URL that answered, redacted, and the key nowhere
        let file = try Self.written(recorder)
        #expect(file.contains(#""_finalURL": "https://api.example.com/files/1?api_key=%3Credacted%3E&v=1""#))
        #expect(!file.contains("K-FINAL-123456"))
        let entry = try #require(recorder.har().log.entries.first)
        #expect(entry.request.url == "https://api.example.com/files/latest")
        #expect(entry.response.content.text?.contains(#""k": "<redacted>""#) == true)
    }

    @Test func anAnswerFromTheRequestsOwnURLRecordsNoFinalURL() async throws {
        // Given a server answering from the URL asked for
        let url = try #require(URL(string: "https://api.example.com/users/7"))
        let recorder = FlightRecorder()
        // When it is recorded
        _ = try await AnsweringFrom(url: url, body: "{}").flightRecording(into: recorder)
            .dispatch(.get(url.absoluteString))
        // Then there is no final URL to keep
        #expect(recorder.har().log.entries.first?.response.finalURL == nil)
    }

    @Test func aReplayAnswersFromTheRecordedFinalURL() throws {
        // Given a recording whose answer came from another URL
        let entry = HAR.Entry(
            startedDateTime: Date(timeIntervalSince1970: 1_700_000_000), time: 1,
            request: HAR.Request(method: "GET", url: "https://api.example.com/files/latest"),
            response: HAR.Response(
                status: 200, finalURL: "https://cdn.example.com/files/1?api_key=%3Credacted%3E"))
        // When it is replayed, Then the response names the URL that answered
        let response = try Recording(entry: entry).replay(for: .get("/files/latest")).get()
        #expect(response.url?.absoluteString == "https://cdn.example.com/files/1?api_key=%3Credacted%3E")
        // And the field survives a write and a read
        let har = HAR(creator: HAR.Creator(name: "t", version: "1"), entries: [entry])
        let read = try HAR(data: try har.encoded(redaction: .none))
        #expect(read.log.entries.first?.response.finalURL == entry.response.finalURL)
    }

    @Test func aReplayedFailureNamesTheRecordedURLWithoutItsCredentials() throws {
        // Given a recorded failure from an export that kept the URL in clear
        let entry = HAR.Entry(
            startedDateTime: Date(timeIntervalSince1970: 1_700_000_000), time: 1,
            request: HAR.Request(method: "GET", url: Self.absolute + "?key=AIza-KEY-66"),
            response: HAR.Response(status: 0, error: "net::ERR_CONNECTION_RESET"))
        // When it is replayed, Then its message names the URL with neither secret
        guard case .failure(let error) = Recording(entry: entry).replay(for: .get(Self.absolute)) else {
            Issue.record("a failure was recorded")
            return
        }
        #expect(!error.message.contains(Self.password))
        #expect(!error.message.contains("AIza-KEY-66"))
        #expect(error.message.contains("GET https://<redacted>@api.example.com/users/42?key=<redacted>"))
    }

    @Test func aCassetteHidesUserInfoKeyAndEveryEchoAndStillReplays() async throws {
        let files = try CassetteFolder()
        defer { files.remove() }
        // Given a recorder whose base URL has user info and a secret query, over an echoing server
        let base = try #require(
            URL(string: "https://base-user:B4sePassw0rd@api.example.com/?api_key=BASE-KEY-77"))
        let upstream = AnsweringFrom(url: nil, body: Self.echo)
        let recorder = ReplayDispatcher(
            cassette: files.cassette, baseURL: base, mode: .once, upstream: upstream,
            configuration: testConfiguration())

        // When requests with user info, and with a `key` query item, are recorded
        let requests: [RequestData] = [
            .get(Self.absolute), RequestData.get("/translate").query("key", "AIza-KEY-55"),
        ]
        for request in requests { _ = try await recorder.dispatch(request) }

        // Then the file holds no spelling of any of them, and the URLs show placeholders
        let file = String(decoding: try files.bytes(), as: UTF8.self)
        for secret in [Self.password, Self.basic, "B4sePassw0rd", "BASE-KEY-77", "AIza-KEY-55"] {
            #expect(!file.contains(secret), "\(secret)")
        }
        let urls = try files.read().log.entries.map(\.request.url)
        #expect(urls[0] == "https://%3Credacted%3E@api.example.com/users/42")
        #expect(urls[1].hasPrefix("https://%3Credacted%3E@api.example.com/translate?"))
        #expect(urls[1].contains("key=%3Credacted%3E"))

        // And the redacted cassette still answers the same requests
        let replay = ReplayDispatcher(
            cassette: files.cassette, baseURL: base, mode: .replayOnly, upstream: ForbiddenUpstream(),
            configuration: testConfiguration())
        for request in requests { #expect(try await replay.dispatch(request).statusCode == 200) }
    }

    @Test func aPasswordEchoedInBase64IsALeakThatRefusesTheWrite() async throws {
        let files = try CassetteFolder()
        defer { files.remove() }
        // Given a server that echoes the password inside a longer base64 text
        let hidden = Data(#"{"echo":"S3cretPw9-and-more"}"#.utf8).base64EncodedString()
        let recorder = ReplayDispatcher(
            cassette: files.cassette, baseURL: nil, mode: .once,
            upstream: AnsweringFrom(url: nil, body: #"{"blob": "\#(hidden)"}"#),
            configuration: testConfiguration())
        // When the request is recorded, Then the write is refused and nothing reaches the file
        let error = await #expect(throws: NetworkError.self) {
            try await recorder.dispatch(.get(Self.absolute))
        }
        #expect(error?.code == .cassette)
        #expect(!FileManager.default.fileExists(atPath: files.cassette.path))
    }
}
