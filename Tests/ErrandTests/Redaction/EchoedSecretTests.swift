import Errand
import ErrandPolicies
import ErrandTestSupport
import Foundation
import Testing

/// Secrets written into a request's path, and secrets a server echoes back under names that are
/// not secret: neither reaches a log line, a description, an error's text or a redacted cURL
/// command.
@Suite struct EchoedSecretTests {
    /// An answer as httpbin's `/anything` gives it: the request repeated as values.
    static let echo = Data(
        #"""
        {"args": {"accessToken": "SECRET-QUERY-4"}, "data": "{\"user\":{\"profile\":{\"password\":\"SECRET-PASSWORD-3\"}}}",
         "url": "http://127.0.0.1/anything?accessToken=SECRET-QUERY-4&token=SECRET-PATH-1",
         "note": "signed in with U0VDUkVULUFVVEgtMg== as Bearer SECRET-AUTH-2", "cookie": "SECRET-COOKIE-5"}
        """#.utf8)

    static let request = RequestData.post("/anything?token=SECRET-PATH-1&page=2")
        .header("Authorization", "Bearer SECRET-AUTH-2")
        .header("Cookie", "theme=dark; session=SECRET-COOKIE-5")
        .query("accessToken", "SECRET-QUERY-4")
        .body(
            .raw(
                Data(#"{"user":{"profile":{"password":"SECRET-PASSWORD-3"}}}"#.utf8),
                contentType: "application/json"))

    static let secrets = [
        "SECRET-PATH-1", "SECRET-AUTH-2", "SECRET-PASSWORD-3", "SECRET-QUERY-4", "SECRET-COOKIE-5",
    ]

    static func leaked(in text: String) -> [String] {
        secrets.filter { text.contains($0) }
    }

    @Test(arguments: [LogLevel.basic, .headers, .body])
    func logLinesHideEchoesAndPathQueries(level: LogLevel) async throws {
        // Given a server that repeats the request in its answer, and in a header
        let inner = InMemoryDispatcher()
        inner.stub(
            .post, "/anything",
            response: .data(Self.echo, contentType: "application/json", headers: ["X-Echo": "SECRET-QUERY-4"])
        )
        let sink = CapturingSink()

        // When the request goes through a logging policy
        _ = try await inner.logging(to: sink, level: level).dispatch(Self.request)

        // Then no line holds a secret, and the path's other items and the echo's shape are kept
        let all = sink.texts.joined(separator: "\n")
        #expect(Self.leaked(in: all).isEmpty, "\(all)")
        #expect(all.contains("→ POST /anything?token=<redacted>&page=2&accessToken=<redacted>"))
        if level == .body {
            #expect(
                all.contains(#""url": "http://127.0.0.1/anything?accessToken=<redacted>&token=<redacted>""#))
            #expect(all.contains(#""note": "signed in with"#))
        }
    }

    @Test func aFailureLineHidesThePathQuery() async throws {
        let inner = InMemoryDispatcher()
        inner.stub(.get, "/x", response: .failure(.transport))
        let sink = CapturingSink()

        _ = try? await inner.logging(to: sink, level: .basic).dispatch(.get("/x?token=SECRET-PATH-1"))

        #expect(sink.texts.count == 2)
        #expect(sink.texts.allSatisfy { !$0.contains("SECRET-PATH-1") && $0.contains("/x?token=<redacted>") })
    }

    @Test func descriptionsRedactAQueryWrittenIntoThePath() {
        let request = RequestData.get(
            "/a?token=SECRET-PATH-1&x=1&api%5Fkey=SECRET-API-KEY&access+token=SECRET-PLUS"
        )
        .query("password", "SECRET-PASSWORD-3")
        #expect(
            request.description
                == "GET /a?token=<redacted>&x=1&api%5Fkey=<redacted>&access+token=<redacted>&password=<redacted>"
        )
        // Pieces without a value, empty pieces and unbalanced escapes are kept as written.
        #expect(RequestData.get("/a?token&&%&%zz=1#frag").description == "GET /a?token&&%&%zz=1#frag")
    }

    @Test func aRedactedCurlCommandHidesThePathQueryAndStaysAURL() throws {
        let request = RequestData.get("/anything?token=SECRET-PATH-1&x=1")
        let base = URL(string: "https://api.example.com")

        let redacted = try request.curlCommand(baseURL: base)
        let plain = try request.curlCommand(baseURL: base, redacted: false)

        #expect(redacted == "curl 'https://api.example.com/anything?token=%3Credacted%3E&x=1'")
        #expect(plain == "curl 'https://api.example.com/anything?token=SECRET-PATH-1&x=1'")
    }

    @Test func anErrorsDescriptionHidesTheResponseURLQueryAndEchoes() async throws {
        // Given a 500 whose URL and body repeat the request's secrets
        let inner = InMemoryDispatcher()
        inner.stub(
            .post, "/anything", response: .data(Self.echo, status: 500, contentType: "application/json"))
        let request = Request<Data>(Self.request)

        // When it fails
        let error = await #expect(throws: NetworkError.self) { try await request.execute(dispatcher: inner) }

        // Then its description, written for the log, holds none of them
        let description = try #require(error).description
        #expect(Self.leaked(in: description).isEmpty, "\(description)")
        #expect(description.contains("body: {"))
    }

    @Test func aResponseURLsSecretQueryIsRedactedInItsDescription() throws {
        let url = try #require(URL(string: "http://h.example/status/500?token=SECRET-PATH-1&x=1"))
        let response = NetworkResponse(statusCode: 500, url: url)
        #expect(
            response.description
                == "500 Internal Server Error, 0 bytes from http://h.example/status/500?token=<redacted>&x=1")
    }

    @Test func aDecodingFailureShowsTheBodyRedacted() async throws {
        struct Profile: Decodable { let id: Int }
        let inner = InMemoryDispatcher()
        inner.stub(.get, "/me", response: .json(["id": "not a number", "refresh_token": "SECRET-REFRESH-6"]))
        inner.stub(
            .get, "/broken",
            response: .data(Data(#"{"password": "SECRET-BROKEN-7", "#.utf8), contentType: "application/json"))

        let decoding = await #expect(throws: NetworkError.self) {
            try await Request<Profile>(.get("/me")).execute(dispatcher: inner)
        }
        let broken = await #expect(throws: NetworkError.self) {
            try await Request<Profile>(.get("/broken")).execute(dispatcher: inner)
        }

        let decodingText = try #require(decoding).description
        #expect(
            !decodingText.contains("SECRET-REFRESH-6")
                && decodingText.contains(#""refresh_token":"<redacted>""#))
        // JSON that cannot be read to redact, and names a secret, is not shown at all.
        let brokenText = try #require(broken).description
        #expect(!brokenText.contains("SECRET-BROKEN-7") && brokenText.contains("not shown"))
    }
}
