import Errand
import ErrandPolicies
import ErrandTestSupport
import Foundation
import Testing

/// Against httpbin: a password in the base URL's user info authenticates, and no log line,
/// metric or redacted cURL command shows it, even where the server echoes it.
@Suite(.enabled(if: LiveServer.httpbinAvailable, LiveServer.skipReason))
struct URLCredentialLiveTests {
    static let password = "S3cretPw9"

    /// The httpbin URL with `user:S3cretPw9@` before its host.
    static func baseWithUserInfo() throws -> URL {
        let base = try LiveServer.require(LiveServer.httpbin, "ERRAND_HTTPBIN_URL")
        var components = try #require(URLComponents(url: base, resolvingAgainstBaseURL: false))
        components.user = "user"
        components.password = password
        return try #require(components.url)
    }

    @Test func theUserInfoAuthenticatesAndReachesNoLogLineMetricOrCommand() async throws {
        // Given a dispatcher whose base URL carries user info, logged at body level and measured
        let base = try Self.baseWithUserInfo()
        let sink = CapturingSink()
        let metrics = RecordingSink()
        let dispatcher = URLSessionDispatcher(baseURL: base).logging(to: sink, level: .body)
            .measuring(into: metrics)

        // When it asks, by a relative and by an absolute path, for pages that echo the request
        let relative = try await dispatcher.dispatch(.get("/anything/relative"))
        let root =
            base.absoluteString.hasSuffix("/") ? String(base.absoluteString.dropLast()) : base.absoluteString
        let absolute = try await dispatcher.dispatch(.get(root + "/anything/@me?email=a@b.example"))

        // Then URLSession sent the user info as Basic credentials both times
        let basic = "Basic " + Data("user:\(Self.password)".utf8).base64EncodedString()
        #expect(String(decoding: relative.body, as: UTF8.self).contains(basic))
        #expect(String(decoding: absolute.body, as: UTF8.self).contains(basic))
        // And no line, metric or redacted command holds the password in any spelling
        let spellings = [Self.password, Data("user:\(Self.password)".utf8).base64EncodedString()]
        let texts =
            sink.texts + metrics.metrics.flatMap { [$0.path, $0.template] } + [
                try RequestData.get("/anything").curlCommand(baseURL: base)
            ]
        for text in texts {
            for spelling in spellings { #expect(!text.contains(spelling), "\(text)") }
        }
        #expect(
            sink.texts.contains { $0.contains("→ GET http://<redacted>@") && $0.contains("/anything/@me?") })
    }

    @Test func theUnredactedCommandAuthenticatesAsTheDispatcherDoes() async throws {
        // Given the command of a request that needs the base URL's credentials
        let base = try Self.baseWithUserInfo()
        let command = try RequestData.get("/basic-auth/user/\(Self.password)")
            .curlCommand(baseURL: base, redacted: false)
        // When bash runs it, Then httpbin let it in
        let output = try CURLTests.echo(await CURLTests.bash(command))
        #expect(output["authenticated"] as? Bool == true)
    }
}
