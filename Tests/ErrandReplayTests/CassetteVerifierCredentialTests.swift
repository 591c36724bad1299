import Errand
import ErrandReplay
import Foundation
import Testing

/// What a verification sends of a cassette's recorded credentials: all of them to the recorded
/// origin, none to another one unless they are set for it.
@Suite struct CassetteVerifierCredentialTests {
    let live = InMemoryDispatcher()

    /// A browser export's GET, with its credentials in clear: user info, an `api_key` query
    /// item, `Authorization`, `Cookie` and `X-API-Key`, next to an ordinary header and item.
    static let exported = CassetteVerifierTests.recorded(
        "GET", "https://ada:S3cretPw9@api.example.com/users?api_key=K1ey0000&page=2", json: "{}",
        requestHeaders: [
            HAR.Header(name: "Authorization", value: "Bearer live-token-1234"),
            HAR.Header(name: "Cookie", value: "session=c00kie-value; theme=dark"),
            HAR.Header(name: "X-API-Key", value: "api-key-5678"),
            HAR.Header(name: "Accept-Language", value: "fr"),
        ])

    static let values = ["S3cretPw9", "K1ey0000", "live-token-1234", "c00kie-value", "api-key-5678"]

    func verify(
        _ entries: [HAR.Entry] = [exported], _ configure: (inout CassetteVerifier.Options) -> Void
    ) async -> VerificationReport {
        live.stub(.get, "/users", response: .data(Data("{}".utf8), contentType: "application/json"))
        let har = HAR(creator: HAR.Creator(name: "test", version: "1"), entries: entries)
        return await CassetteVerifier(
            har: har, dispatcher: live, options: CassetteVerifier.Options(configure)
        )
        .verify()
    }

    @Test(arguments: [
        "http://api.example.com",  // another scheme
        "https://staging.example.com",  // another host
        "https://api.example.com:8443",  // another port
        "http://127.0.0.1:8080",
    ])
    func anotherOriginGetsNoneOfTheRecordedCredentials(base: String) async throws {
        // Given the export, verified under a base URL of another origin
        let report = await verify { $0.baseURL = URL(string: base) }
        // Then the request carries the ordinary header and query item only
        let sent = try #require(live.receivedRequests.first)
        let origin = try #require(URL(string: base)).absoluteString
        #expect(sent.path == "\(origin)/users?page=2")
        #expect(sent.headers.map(\.name) == ["Accept-Language"])
        // And the report names what it left out, without a single value
        #expect(report.description.contains("withheld entry 0: GET \(origin)/users?page=2"), "\(report)")
        for name in ["URL user info", "query item api_key", "header Authorization", "header Cookie"] {
            #expect(report.description.contains(name), "\(report)")
        }
        for value in Self.values {
            #expect(!report.description.contains(value))
            #expect(!"\(sent)".contains(value))
        }
    }

    @Test func theReportListsTheWithheldCredentialsByName() async throws {
        // Given the export, verified on another host
        let report = await verify { $0.baseURL = URL(string: "https://staging.example.com") }
        // Then each credential is named once, in the order found
        #expect(
            report.withheld == [
                VerificationReport.Withheld(
                    entry: 0, method: "GET", url: "https://staging.example.com/users?page=2",
                    credentials: [
                        "URL user info", "query item api_key", "header Authorization", "header Cookie",
                        "header X-API-Key",
                    ])
            ])
    }

    @Test func aSetHeaderIsSentInPlaceOfTheWithheldOne() async throws {
        // Given the export, verified on another host with a staging token set
        let report = await verify {
            $0.baseURL = URL(string: "https://staging.example.com")
            $0.setHeaders = ["Authorization": "Bearer staging-token"]
        }
        // Then the set token is sent, and only the others are withheld
        let sent = try #require(live.receivedRequests.first)
        #expect(sent.headers["Authorization"] == "Bearer staging-token")
        #expect(sent.headers.values(for: "Authorization").count == 1)
        #expect(report.withheld.first?.credentials.contains("header Authorization") == false)
        #expect(report.withheld.first?.credentials.contains("header Cookie") == true)
    }

    @Test(arguments: [nil, "https://API.example.com:443", "https://api.example.com."])
    func theRecordedOriginGetsTheRecordedCredentials(base: String?) async throws {
        // Given the export, sent to its own origin (no base URL, or the same one spelled otherwise)
        let report = await verify { $0.baseURL = base.flatMap(URL.init(string:)) }
        // Then it goes as the browser sent it, and nothing is withheld
        let sent = try #require(live.receivedRequests.first)
        #expect(sent.path.contains("ada:S3cretPw9@"))
        #expect(sent.path.hasSuffix("/users?api_key=K1ey0000&page=2"))
        #expect(sent.headers["Authorization"] == "Bearer live-token-1234")
        #expect(sent.headers["X-API-Key"] == "api-key-5678")
        #expect(report.withheld.isEmpty)
        // And the report shows the URL without the user info and the key's value
        #expect(report.verified == [0])
        for value in Self.values {
            #expect(!report.description.contains(value), "\(report)")
        }
    }

    @Test func aCredentialHeaderThatChangedIsReportedWithoutItsValues() async {
        // Given a compared Set-Cookie header whose value changed
        live.stub(
            .get, "/users",
            response: .data(
                Data("{}".utf8), contentType: "application/json", headers: ["Set-Cookie": "s=new-value"]))
        var entry = CassetteVerifierTests.recorded(json: "{}")
        entry.response.headers.append(HAR.Header(name: "Set-Cookie", value: "s=old-value"))
        let har = HAR(creator: HAR.Creator(name: "test", version: "1"), entries: [entry])
        let report = await CassetteVerifier(
            har: har, dispatcher: live, options: CassetteVerifier.Options { $0.headers = ["Set-Cookie"] }
        ).verify()
        // Then the change is reported, its values shown as the placeholder
        #expect(
            report.differences.map(\.kind) == [
                .headerChanged(name: "Set-Cookie", from: "<redacted>", to: "<redacted>")
            ])
    }
}
