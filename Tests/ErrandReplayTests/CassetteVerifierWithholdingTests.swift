import Errand
import ErrandReplay
import Foundation
import Testing

/// What another origin gets of a recording's secrets, decided on the URL actually sent: no
/// `key` query item, no header sent after a mapping points the request elsewhere, no secret
/// value of the body; and what the report and its messages say about it.
@Suite struct CassetteVerifierWithholdingTests {
    let live = InMemoryDispatcher()

    func verify(
        _ entries: [HAR.Entry], _ configure: (inout CassetteVerifier.Options) -> Void
    ) async -> VerificationReport {
        live.stub(.get, "/users", response: .data(Data("{}".utf8), contentType: "application/json"))
        live.stub(.post, "/users", response: .data(Data("{}".utf8), contentType: "application/json"))
        let har = HAR(creator: HAR.Creator(name: "test", version: "1"), entries: entries)
        return await CassetteVerifier(
            har: har, dispatcher: live, options: CassetteVerifier.Options(configure)
        )
        .verify()
    }

    @Test func aKeyQueryItemIsWithheldFromAnotherOriginAndHiddenInTheReport() async throws {
        // Given a GET with a `key` item (secret in queries only) and a skipped POST with one
        let entries = [
            CassetteVerifierTests.recorded(
                "GET", "https://api.example.com/users?key=AIzaRECQK7&page=2", json: "{}"),
            CassetteVerifierTests.recorded(
                "POST", "https://api.example.com/users?key=AIzaRECQK8", json: "{}"),
        ]
        // When verified on another host
        let report = await verify(entries) { $0.baseURL = URL(string: "https://staging.example.com") }
        // Then the key is not sent, is named as withheld, and no value shows in the report
        let sent = try #require(live.receivedRequests.first)
        #expect(sent.path == "https://staging.example.com/users?page=2")
        #expect(report.withheld.first?.credentials == ["query item key"])
        #expect(report.skipped.first?.url == "https://api.example.com/users?key=<redacted>")
        #expect(!report.description.contains("AIzaRECQK"), "\(report)")
    }

    @Test(arguments: ["https://api.example.com@localhost:38917/users", "http://localhost:38917/users"])
    func aMappingToAnotherOriginGetsNoneOfTheRecordedCredentials(path: String) async throws {
        // Given a recording with a token and a key, mapped (as `--rewrite` does) to another origin
        let entry = CassetteVerifierTests.recorded(
            "GET", "https://api.example.com/users?api_key=KREWRITE2", json: "{}",
            requestHeaders: [
                HAR.Header(name: "Authorization", value: "Bearer REWRITE1"),
                HAR.Header(name: "Accept-Language", value: "fr"),
            ])
        // When verified without a base URL
        let report = await verify([entry]) { options in
            options.mapRequest = { _, request in
                var request = request
                request.path = path + "?api_key=KREWRITE2"
                return request
            }
        }
        // Then the recorded credentials stay behind, by the URL actually sent
        let sent = try #require(live.receivedRequests.first)
        #expect(sent.headers.map(\.name) == ["Accept-Language"])
        #expect(sent.path == path)
        #expect(report.withheld.first?.credentials == ["query item api_key", "header Authorization"])
        #expect(report.withheld.first?.description.contains("--set-header") == true)
    }

    @Test func aMappingAtTheRecordedOriginKeepsTheCredentials() async throws {
        // Given a recording with a token, mapped to another path of the same origin
        let entry = CassetteVerifierTests.recorded(
            "GET", "https://api.example.com/old", json: "{}",
            requestHeaders: [HAR.Header(name: "Authorization", value: "Bearer SAME1")])
        let report = await verify([entry]) { options in
            options.mapRequest = { _, request in
                var request = request
                request.path = "https://API.example.com:443/users"
                return request
            }
        }
        // Then it goes as recorded
        #expect(live.receivedRequests.first?.headers["Authorization"] == "Bearer SAME1")
        #expect(report.withheld.isEmpty)
    }

    @Test func anotherOriginGetsTheBodyWithItsSecretValuesWithheld() async throws {
        // Given a POST whose JSON body holds a password and a token, opted in
        let body = #"{"password":"RECBODYPW8","token":"RECBODYTOK9","name":"ann\n\u001B"}"#
        let entry = CassetteVerifierTests.recorded("POST", json: "{}", body: body)
        // When verified on another host
        let report = await verify([entry]) {
            $0.baseURL = URL(string: "https://staging.example.com")
            $0.allowsUnsafeEntries = [0]
        }
        // Then the body goes with its secret values replaced, and the report says so
        let sent = try #require(live.receivedRequests.first?.body?.data)
        let text = String(decoding: sent, as: UTF8.self)
        #expect(!text.contains("RECBODYPW8") && !text.contains("RECBODYTOK9"), "\(text)")
        #expect(text.contains(#""name":"ann\n\u001B""#), "\(text)")
        #expect(report.withheld.first?.credentials == ["body's secret values"])
    }

    @Test func theRecordedOriginGetsTheBodyAsRecorded() async throws {
        let body = #"{"password":"RECBODYPW8"}"#
        let report = await verify([CassetteVerifierTests.recorded("POST", json: "{}", body: body)]) {
            $0.allowsUnsafeMethods = true
        }
        #expect(live.receivedRequests.first?.body?.data == Data(body.utf8))
        #expect(report.withheld.isEmpty)
    }

    @Test func anUnreadableCassetteIsDescribedOnceWithoutTheSystemErrorsDump() throws {
        // Given a cassette path that does not exist, with a control character in it
        let path = "/nonexistent/cas\u{1B}]0;x\u{07}sette.har"
        // When a verifier is made for it
        let error = try #require(throws: NetworkError.self) {
            try CassetteVerifier(cassette: URL(fileURLWithPath: path), dispatcher: live)
        }
        // Then its message names the file once, with the reason, and no underlying error's dump
        #expect(error.message.components(separatedBy: "sette.har").count == 2, "\(error.message)")
        #expect(!error.message.contains("Underlying error"), "\(error.message)")
        #expect(!error.message.contains("NSError") && !error.message.contains("Domain="), "\(error.message)")
    }
}
