import Errand
import ErrandTestSupport
import Foundation
import Testing

/// Credentials on redirects followed by `URLSessionDispatcher`, against httpbin on 127.0.0.1:
/// `localhost` on the same port reaches the same server but is another origin.
@Suite(.enabled(if: LiveServer.httpbinAvailable, LiveServer.skipReason))
struct RedirectCredentialsLiveTests {
    let server: URL
    let dispatcher: URLSessionDispatcher

    init() throws {
        server = try LiveServer.require(LiveServer.httpbin, "ERRAND_HTTPBIN_URL")
        dispatcher = URLSessionDispatcher(baseURL: server)
    }

    /// `/anything` on the same server under another host name: another origin.
    private var otherOrigin: String {
        get throws {
            let port = try #require(server.port)
            return "http://localhost:\(port)/anything"
        }
    }

    /// A request through a redirect to `location`, with credentials of every kind.
    private func echo(redirectedTo location: String) async throws -> [String: String] {
        let request = RequestData.get("/redirect-to").query("url", location)
            .header("Authorization", "Bearer REDIRTOKEN1")
            .header("cookie", "sid=REDIRCOOKIE2")
            .header("X-API-Key", "REDIRKEY3")
            .header("x-goog-api-key", "REDIRKEY4")
            .header("X-Trace", "kept-5")
        let echo = try await Request<Echo>(request).execute(dispatcher: dispatcher)
        return try #require(echo.headers)
    }

    @Test func aRedirectToAnotherOriginCarriesNoCredentials() async throws {
        // Given a request with credentials, redirected to another origin
        let headers = try await echo(redirectedTo: try otherOrigin)

        // Then the other origin received the request, and none of its credentials
        #expect(headers["Host"]?.hasPrefix("localhost") == true)
        #expect(headers["Authorization"] == nil)
        #expect(headers["Cookie"] == nil)
        #expect(headers["X-Api-Key"] == nil)
        #expect(headers["X-Goog-Api-Key"] == nil)
        #expect(headers.values.allSatisfy { !$0.contains("REDIR") })
        #expect(headers["X-Trace"] != nil)
    }

    @Test(arguments: ["/anything", "ABSOLUTE"])
    func aRedirectToTheSameOriginKeepsThem(location: String) async throws {
        // Given a request redirected to the same origin, by a relative or an absolute location
        let target = location == "ABSOLUTE" ? server.absoluteString + "/anything" : location
        let headers = try await echo(redirectedTo: target)

        // Then every credential arrives
        #expect(headers["Authorization"] == "Bearer REDIRTOKEN1")
        #expect(headers["Cookie"] == "sid=REDIRCOOKIE2")
        #expect(headers["X-Api-Key"] == "REDIRKEY3")
    }

    @Test func userInfoDoesNotFollowToAnotherOrigin() async throws {
        // Given a base URL with user info, and a location that names only another host
        var components = try #require(URLComponents(url: server, resolvingAgainstBaseURL: false))
        components.user = "redir"
        components.password = "S3cretPw9"
        let base: URL = try #require(components.url)
        let dispatcher = URLSessionDispatcher(baseURL: base)
        let port = try #require(server.port)

        // When it is redirected there
        let echo = try await Request<Echo>(
            .get("/redirect-to").query("url", "//localhost:\(port)/anything")
        ).execute(dispatcher: dispatcher)

        // Then no Basic credentials arrive
        let headers = try #require(echo.headers)
        #expect(headers["Host"]?.hasPrefix("localhost") == true)
        #expect(headers["Authorization"] == nil)
    }

    @Test func aSecretQueryItemInTheLocationIsTheServersChoice() async throws {
        // Given a location to another origin with a key in its query
        let echo = try await Request<Echo>(
            .get("/redirect-to").query("url", try otherOrigin + "?key=AIzaLOCATION6")
                .header("Authorization", "Bearer REDIRTOKEN1")
        ).execute(dispatcher: dispatcher)

        // Then the query goes as the server wrote it; the header does not
        #expect(echo.args == ["key": "AIzaLOCATION6"])
        #expect(echo.headers?["Authorization"] == nil)
    }
}
