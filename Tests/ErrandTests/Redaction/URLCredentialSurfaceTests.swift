import Errand
import ErrandPolicies
import ErrandTestSupport
import Foundation
import Testing

/// A password in a URL's user info, and a `key` query item, are credentials on every surface the
/// library writes a URL to: descriptions, log lines, error descriptions, cURL commands, metrics.
@Suite struct URLCredentialSurfaceTests {
    static let password = "S3cretPw9"
    static let absolute = "https://user:S3cretPw9@api.example.com/users/42"
    static let shown = "https://<redacted>@api.example.com/users/42"
    /// The spellings of the password a server may echo: bare, in the pair, inside `Basic`.
    static let spellings = [password, Data("user:S3cretPw9".utf8).base64EncodedString()]

    /// URLs with user info, hostile ones too, and how a description shows them.
    static let descriptions: [(path: String, shown: String)] = [
        (absolute, "GET \(shown)"),
        (
            "https://us%40er:p%3Assword9@api.example.com/a/@me?e=a@b.example",
            "GET https://<redacted>@api.example.com/a/@me?e=a@b.example"
        ),
        ("https://user:@api.example.com/", "GET https://<redacted>@api.example.com/"),
        ("https://TOKEN-abcdef123@api.example.com/", "GET https://<redacted>@api.example.com/"),
        ("http://user:p%zz%4@[::1]:8080/x", "GET http://<redacted>@[::1]:8080/x"),
        (
            "https://api.example.com/users/@me?email=a@b.example",
            "GET https://api.example.com/users/@me?email=a@b.example"
        ),
        (
            "https://user:pw@api.example.com/\u{1B}[2J\r\n[errand #9]",
            "GET https://<redacted>@api.example.com/\\u{1B}[2J\\r\\n[errand #9]"
        ),
    ]

    @Test(arguments: descriptions)
    func aDescriptionShowsTheUserInfoRedactedOnOneLine(path: String, shown: String) {
        // When a request to a URL with user info is described
        let description = RequestData.get(path).description
        // Then the whole user info is the placeholder, an `@` elsewhere stays, and nothing ends the line
        #expect(description == shown)
    }

    @Test(arguments: [LogLevel.basic, .headers, .body])
    func noLogLineShowsThePasswordAtAnyLevel(level: LogLevel) async throws {
        // Given a server that echoes the URL and the Basic credentials it was sent
        let server = InMemoryDispatcher()
        let echo = #"{"url": "\#(Self.absolute)", "auth": "Basic \#(Self.spellings[1])", "pw": "S3cretPw9"}"#
        server.stub(.get, "/users/42", response: .data(Data(echo.utf8), contentType: "application/json"))
        server.stub(.get, "/missing", response: .status(404))
        let sink = CapturingSink()
        let dispatcher = server.logging(to: sink, level: level)

        // When requests to URLs with user info are logged, answered and failed
        _ = try await dispatcher.dispatch(.get(Self.absolute))
        _ = try? await Request<String>(.get("https://user:S3cretPw9@api.example.com/missing"))
            .execute(dispatcher: dispatcher)

        // Then no line holds the password in any spelling, and each shows where it went
        let all = sink.texts.joined(separator: "\n")
        for spelling in Self.spellings { #expect(!all.contains(spelling), "\(spelling) at \(level)") }
        #expect(all.contains("→ GET \(Self.shown)"))
        #expect(all.contains("← 404 GET https://<redacted>@api.example.com/missing"))
    }

    @Test func anErrorDescriptionShowsNoPassword() async throws {
        // Given a server that refuses a URL with user info and echoes it
        let server = InMemoryDispatcher()
        server.stub(.get, "/users/42", response: .text("no access for \(Self.absolute)", status: 403))
        // When the request fails
        let error = await #expect(throws: NetworkError.self) {
            try await Request<String>(.get(Self.absolute)).execute(dispatcher: server)
        }
        // Then its description shows the request and the body without the password
        let description = try #require(error).description
        #expect(!description.contains(Self.password))
        #expect(description.contains("request: GET \(Self.shown)"))
    }

    @Test func metricsNameNoUserInfo() async throws {
        // Given a measured server, one with the default template and one with a template of the path
        let server = InMemoryDispatcher()
        server.stub(.get, "/users/42", response: .text("ok"))
        let sink = RecordingSink()
        // When a request to a URL with user info is measured
        _ = try await server.measuring(into: sink).dispatch(.get(Self.absolute + "?key=K-123456"))
        _ = try await server.measuring(into: sink, template: { $0.path }).dispatch(.get(Self.absolute))
        // Then neither its path nor its template holds the password
        let metrics = sink.metrics
        #expect(metrics.map(\.path) == [Self.shown, Self.shown])
        #expect(metrics.map(\.template) == ["https://<redacted>@api.example.com/users/{id}", Self.shown])
    }

    @Test func theCurlCommandHidesUserInfoInThePathAndInTheBaseURL() throws {
        // Given a request with user info, and a base URL with user info and a secret query
        let base = URL(string: "https://base-user:B4sePassw0rd@api.example.com/v1?api_key=BASE-KEY-1&v=2")
        // When their commands are made, redacted by default
        let absolute = try RequestData.get(Self.absolute).curlCommand(baseURL: nil)
        let relative = try RequestData.get("/users/42").query("key", "AIza-KEY-2").curlCommand(baseURL: base)
        // Then the user info and every secret query item are replaced, wherever they came from
        #expect(absolute == "curl 'https://%3Credacted%3E@api.example.com/users/42'")
        #expect(
            relative == "curl 'https://%3Credacted%3E@api.example.com/v1/users/42?api_key=%3Credacted%3E&v=2"
                + "&key=%3Credacted%3E'")
        // And unredacted, the command authenticates as the dispatcher would
        #expect(
            try RequestData.get(Self.absolute).curlCommand(baseURL: nil, redacted: false).contains(
                Self.password))
        #expect(
            try RequestData.get("/x").curlCommand(baseURL: base, redacted: false).contains("B4sePassw0rd"))
    }

    @Test func aSecretQueryItemOfTheBaseURLIsRedactedAsOneOfTheRequestsOwn() throws {
        // Given the same secret on the base URL and in the request's query
        let onBase = try RequestData.get("/v1/items")
            .curlCommand(baseURL: URL(string: "https://api.example.com/?api_key=K-SECRET-3"))
        let onRequest = try RequestData.get("/v1/items").query("api_key", "K-SECRET-3")
            .curlCommand(baseURL: URL(string: "https://api.example.com/"))
        // Then both commands read the same, without it
        #expect(!onBase.contains("K-SECRET-3"))
        #expect(onBase == onRequest)
    }

    @Test func keyIsHiddenInQueriesOnEverySurfaceAndShownAsABodyKey() async throws {
        // Given a request with a `key` query item and a JSON body with a `key` field
        let request = RequestData.post("/translate").query("key", "AIza-KEY-4")
            .body(.raw(Data(#"{"key":"greeting","text":"hi"}"#.utf8), contentType: "application/json"))
        let server = InMemoryDispatcher()
        server.stub(.post, "/translate", response: .status(204))
        let sink = CapturingSink()

        // When it is described, logged and turned into a cURL command
        _ = try await server.logging(to: sink, level: .body).dispatch(request)
        let surfaces = [
            request.description, sink.texts.joined(separator: "\n"),
            try request.curlCommand(baseURL: URL(string: "https://api.example.com")),
        ]

        // Then every surface hides the query value and keeps the body's `key`
        for text in surfaces {
            #expect(!text.contains("AIza-KEY-4"), "\(text)")
            #expect(text.contains("key=<redacted>") || text.contains("key=%3Credacted%3E"), "\(text)")
        }
        #expect(surfaces[1].contains(#""key":"greeting""#))
        #expect(surfaces[2].contains(#""key":"greeting""#))
    }
}
