import Errand
import ErrandTestSupport
import Foundation
import Testing

@testable import ErrandReplay

/// Exchanges with nothing to hide are kept as they came and turned into HAR when written; every
/// other one is redacted at once.
@Suite struct FlightRecorderPlainTests {
    private static let baseURL = URL(string: "https://api.example.com")
    private static let started = Date(timeIntervalSince1970: 1_800_000_000)
    private static let userJSON = Data(#"{"id":7,"name":"Ada","address":{"city":"London"}}"#.utf8)

    private static func recorder(
        _ redaction: HAR.Redaction = .default, maximumBytes: Int = 8 << 20
    ) -> FlightRecorder {
        FlightRecorder(
            FlightRecorder.Configuration(maximumBytes: maximumBytes, redaction: redaction, baseURL: baseURL),
            clock: ManualClock(), now: { started })
    }

    private static func response(headers: HTTPHeaders, body: Data) -> NetworkResponse {
        NetworkResponse(statusCode: 200, headers: headers, body: body)
    }

    @Test func anExchangeWithNothingToHideIsWrittenAsARecordingOfItWouldBe() async throws {
        // Given a server answering JSON with the headers nginx sends, and a recorder
        let headers: HTTPHeaders = [
            "Content-Type": "application/json", "Content-Length": "\(Self.userJSON.count)", "ETag": "\"a1\"",
            "Server": "nginx", "X-Request-Id": "r-1",
        ]
        let server = InMemoryDispatcher()
        server.stub(.get, "/users/7", response: .status(200, headers: headers, body: Self.userJSON))
        server.stub(.post, "/users", response: .status(201, headers: headers, body: Self.userJSON))
        let recorder = Self.recorder()
        let requests: [RequestData] = [
            RequestData.get("/users/7").header("Accept", "application/json").header("X-Trace", "t-1"),
            RequestData.post("/users").body(.json(["name": "Ada"])),
        ]

        // When both are sent through it
        for request in requests {
            _ = try await server.flightRecording(into: recorder).dispatch(request)
        }

        // Then each was nothing to hide, and is written exactly as `Recording` writes it
        let written = recorder.har().entries
        #expect(written.count == 2)
        for (request, entry) in zip(requests, written) {
            let answer = Self.response(headers: headers, body: Self.userJSON)
            #expect(
                recorder.plainExchange(
                    request, response: answer, startedDateTime: Self.started, duration: .zero) != nil)
            let expected = try Recording(
                request: request, baseURL: Self.baseURL,
                response: NetworkResponse(
                    statusCode: request.method == .post ? 201 : 200, headers: headers, body: Self.userJSON),
                startedDateTime: Self.started, duration: .zero
            ).entry
            #expect(entry == expected)
        }
    }

    /// Every part of an exchange the redaction reads, in a form that holds a secret.
    static let secretParts: [(name: String, request: RequestData, response: NetworkResponse)] = {
        let json: HTTPHeaders = ["Content-Type": "application/json"]
        let plain = RequestData.get("/users/7")
        let body = Data(#"{"id":7}"#.utf8)
        func answer(_ headers: HTTPHeaders, _ body: Data = body) -> NetworkResponse {
            NetworkResponse(statusCode: 200, headers: headers, body: body)
        }
        func answer(_ headers: HTTPHeaders, adding name: String, _ value: String) -> NetworkResponse {
            var headers = headers
            headers.add(name, value)
            return answer(headers)
        }
        var parts: [(name: String, request: RequestData, response: NetworkResponse)] = [
            ("Authorization", plain.header("Authorization", "Bearer s3cret-1"), answer(json)),
            ("authorization", plain.header("authorization", "Bearer s3cret-2"), answer(json)),
            ("X-Api-Key", plain.header("X-API-KEY", "s3cret-3"), answer(json)),
            ("access token header", plain.header("Access_Token", "s3cret-4"), answer(json)),
            ("Cookie", plain.header("Cookie", "session=s3cret-5"), answer(json)),
            ("Set-Cookie", plain, answer(json, adding: "Set-Cookie", "session=s3cret-6; HttpOnly")),
            ("Location", plain, answer(json, adding: "Location", "https://a.example/next?token=s3cret-7")),
            ("Referer", plain.header("Referer", "https://a.example/?password=s3cret-8"), answer(json)),
            ("Content-Location", plain, answer(json, adding: "Content-Location", "/x?sig=s3cret-9")),
            ("query", plain.query("access_token", "s3cret-10"), answer(json)),
            ("query in the path", .get("/users?api_key=s3cret-11"), answer(json)),
            ("fragment", .get("/users#token=s3cret-12"), answer(json)),
            ("JSON response key", plain, answer(json, Data(#"{"refresh_token":"s3cret-13"}"#.utf8))),
            ("nested JSON key", plain, answer(json, Data(#"{"a":{"b":[{"Pass-Word":"s3cret-14"}]}}"#.utf8))),
            ("escaped JSON key", plain, answer(json, Data(#"{"pass\u0077ord":"s3cret-15"}"#.utf8))),
            (
                "problem+json key", plain,
                answer(["Content-Type": "application/problem+json"], Data(#"{"secret":"s3cret-16"}"#.utf8))
            ),
            ("text body", plain, answer(["Content-Type": "text/plain"], Data("token=s3cret-17".utf8))),
            ("body without a type", plain, answer([:], Data(#"{"token":"s3cret-18"}"#.utf8))),
            (
                "form body", RequestData.post("/login").body(.form(["client_secret": "s3cret-19"])),
                answer(json)
            ),
            (
                "multipart body",
                RequestData.post("/upload").body(.multipart([.field("password", "s3cret-20")])),
                answer(json)
            ),
        ]
        parts.append(
            (
                "JSON request key", RequestData.post("/login").body(.json(["password": "s3cret-21"])),
                answer(json)
            ))
        return parts
    }()

    static let bodiesTheRedactionDoesNotRead: Set<String> = ["text body"]

    @Test(arguments: 0..<secretParts.count)
    func anExchangeWithAnythingToHideIsRedactedBeforeItIsKept(index: Int) throws {
        // Given an exchange with a secret in one place the redaction reads
        let (name, request, response) = Self.secretParts[index]
        let recorder = Self.recorder()

        // When it is checked for being plain, and recorded
        let plain = recorder.plainExchange(
            request, response: response, startedDateTime: Self.started, duration: .zero)
        recorder.record(
            request, .success(response), startedDateTime: Self.started, duration: .zero)

        // Then it is not kept as it came, and what is kept holds no secret
        #expect(plain == nil, "\(name) was kept as it came")
        // A body that is neither JSON (by its type, or untyped and reading as JSON), a form nor
        // multipart is not read by the redaction, kept or not; it is still never kept as it came.
        guard !Self.bodiesTheRedactionDoesNotRead.contains(name) else { return }
        // Written without a second redaction, so what was kept is what is read.
        let text = try String(decoding: recorder.har().encoded(redaction: .none), as: UTF8.self)
        #expect(!text.contains("s3cret"), "\(name) reached the recording")
    }

    @Test(arguments: 0..<secretParts.count)
    func withoutRedactionEveryExchangeWithAQuerylessURLIsKeptAsItCame(index: Int) {
        // Given a recorder that hides nothing
        let (name, request, response) = Self.secretParts[index]
        let recorder = Self.recorder(.none)

        // When an exchange is checked, Then only its URL decides
        let plain = recorder.plainExchange(
            request, response: response, startedDateTime: Self.started, duration: .zero)
        let querylessURL = request.query.isEmpty && !request.path.hasQueryOrFragment
        #expect((plain != nil) == querylessURL, "\(name)")
    }

    @Test func aPlainExchangeOverTheByteBudgetIsKeptWithoutItsBody() throws {
        // Given a recorder with a budget of 4,000 bytes and a JSON answer of 10,000 with nothing to hide
        let recorder = Self.recorder(maximumBytes: 4_000)
        let body = Data(("[" + Array(repeating: "1", count: 5_000).joined(separator: ",") + "]").utf8)
        let response = Self.response(headers: ["Content-Type": "application/json"], body: body)

        // When it is recorded
        recorder.record(
            .get("/numbers"), .success(response), startedDateTime: Self.started, duration: .zero)

        // Then the budget holds and the body is replaced by a note
        let entry = try #require(recorder.har().entries.first)
        #expect(entry.response.content.body == nil)
        #expect(entry.response.content.size == body.count)
        #expect(recorder.byteCount <= 4_000)
    }

    @Test func theBudgetCountsAPlainExchangeAsItsEntryWouldBeCounted() {
        // Given an exchange with nothing to hide
        let recorder = Self.recorder()
        let request = RequestData.get("/users/7").header("Accept", "application/json")
        let response = Self.response(
            headers: ["Content-Type": "application/json", "Server": "nginx"], body: Self.userJSON)

        // When it is weighed kept as it came and as an entry, Then the two agree
        let plain = recorder.plainExchange(
            request, response: response, startedDateTime: Self.started, duration: .zero)
        #expect(plain?.weight == plain.map { FlightRecorder.weight(of: $0.entry) })
    }
}
