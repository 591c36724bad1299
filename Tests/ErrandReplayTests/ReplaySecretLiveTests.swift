import Errand
import ErrandReplay
import ErrandTestSupport
import Foundation
import Testing

/// Recording real traffic from a server that echoes every secret it is sent leaves none of
/// them in the cassette, in any spelling.
@Suite(.enabled(if: LiveServer.httpbinAvailable, LiveServer.skipReason))
struct ReplaySecretLiveTests {
    static let bearer = "live-bearer-4711"
    static let queryToken = "live/query token+1"
    static let accessToken = "live-access-\"q\"/<x>"
    static let refreshToken = "live-refresh-9876"

    /// The secret and its parts in every spelling, as text and as a HAR file escapes it.
    static func spellings(of secret: String) -> Set<String> {
        var result: Set<String> = []
        for spelling in SecretSpelling.spellings(of: secret) {
            result.insert(spelling.text)
            if let encoded = try? JSONEncoder().encode(spelling.text) {
                result.insert(String(decoding: encoded.dropFirst().dropLast(), as: UTF8.self))
            }
        }
        return result
    }

    @Test func recordsHttpbinsEchoOfEverySecretWithoutAnyOfThem() async throws {
        let base = try LiveServer.require(LiveServer.httpbin, "ERRAND_HTTPBIN_URL")
        let files = try CassetteFolder()
        defer { files.remove() }
        // Given a request with a bearer token, a secret query item and a camelCase JSON body,
        // sent to httpbin's /anything, which echoes all of them in its JSON answer
        let request = RequestData.post("/anything")
            .header("Authorization", "Bearer \(Self.bearer)")
            .query("access_token", Self.queryToken).query("page", "1")
            .body(.json(["accessToken": Self.accessToken, "refreshToken": Self.refreshToken, "user": "ada"]))
        let recorder = ReplayDispatcher(
            cassette: files.cassette, baseURL: base, mode: .recordAll,
            upstream: URLSessionDispatcher(baseURL: base, timeout: 10), configuration: testConfiguration())
        // When recorded
        let response = try await recorder.dispatch(request)
        // Then httpbin did echo them
        let echo = String(decoding: response.body, as: UTF8.self)
        #expect(echo.contains(Self.bearer))
        #expect(echo.contains(Self.refreshToken))
        // And the file holds none of them, in any spelling
        let file = String(decoding: try files.bytes(), as: UTF8.self)
        for secret in [Self.bearer, Self.queryToken, Self.accessToken, Self.refreshToken] {
            for spelling in Self.spellings(of: secret) {
                #expect(!file.contains(spelling), "\(secret) leaked as \(spelling)")
            }
        }
        for fragment in [
            "live-bearer", "live-access", "live-refresh", "live/query", "live%2Fquery", "query token",
            "query%20token",
            "query+token",
        ] {
            #expect(!file.contains(fragment), "\(fragment) leaked")
        }
        #expect(file.contains("<redacted>"))
        #expect(file.contains("ada"))
    }
}
