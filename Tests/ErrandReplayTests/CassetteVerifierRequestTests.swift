import Errand
import ErrandPolicies
import ErrandReplay
import ErrandTestSupport
import Foundation
import Testing

/// What a cassette verification sends, what it skips, and how its report reads.
@Suite struct CassetteVerifierRequestTests {
    let live = InMemoryDispatcher()

    func verify(
        _ entries: [HAR.Entry], _ configure: (inout CassetteVerifier.Options) -> Void = { _ in }
    ) async -> VerificationReport {
        let har = HAR(creator: HAR.Creator(name: "test", version: "1"), entries: entries)
        return await CassetteVerifier(
            har: har, dispatcher: live, options: CassetteVerifier.Options(configure)
        )
        .verify()
    }

    @Test func theBaseURLReplacesSchemeHostAndPortAndKeepsPathAndQuery() async throws {
        // Given a recording against production with an encoded path and a query
        live.stub(.get, "/v1/a%20b", response: .text("ok"))
        let entry = CassetteVerifierTests.recorded(
            "GET", "https://api.example.com/v1/a%20b?z=1&a=%2F", json: "{}")
        // When it is verified against a staging base URL
        let report = await verify([entry]) { $0.baseURL = URL(string: "http://127.0.0.1:8080/ignored") }
        // Then the request goes to staging with the recorded path and query byte for byte
        let sent = try #require(live.receivedRequests.first)
        #expect(sent.path == "http://127.0.0.1:8080/v1/a%20b?z=1&a=%2F")
        #expect(report.differences.map(\.url) == ["http://127.0.0.1:8080/v1/a%20b?z=1&a=%2F"])
        #expect(report.differences.map(\.category) == [.body])
    }

    @Test func redactedAndConnectionHeadersAreNotSentSoTheDispatcherCanSupplyThem() async throws {
        // Given a recording with a redacted token, a connection header and an ordinary one
        live.stub(.get, "/users", response: .data(Data("{}".utf8), contentType: "application/json"))
        let entry = CassetteVerifierTests.recorded(
            json: "{}",
            requestHeaders: [
                HAR.Header(name: "Authorization", value: "Bearer <redacted>"),
                HAR.Header(name: "Host", value: "api.example.com"),
                HAR.Header(name: ":authority", value: "api.example.com"),
                HAR.Header(name: "Accept-Language", value: "fr"),
            ])
        // When it is sent through a dispatcher that sets the staging token
        let dispatcher = live.intercepted(by: [DefaultHeadersInterceptor(["Authorization": "Bearer staging"])]
        )
        let har = HAR(creator: HAR.Creator(name: "test", version: "1"), entries: [entry])
        _ = await CassetteVerifier(har: har, dispatcher: dispatcher).verify()
        // Then the request carries the staging token and the ordinary header, nothing else
        let sent = try #require(live.receivedRequests.first)
        #expect(sent.headers.map(\.name).sorted() == ["Accept-Language", "Authorization"])
        #expect(sent.headers["Authorization"] == "Bearer staging")
        #expect(sent.headers["Accept-Language"] == "fr")
    }

    @Test func theMappingRewritesOrExcludesAnEntry() async throws {
        // Given two recordings of /json
        live.stub(
            .get, "/uuid", response: .data(Data(#"{"uuid":"x"}"#.utf8), contentType: "application/json"))
        let entries = [
            CassetteVerifierTests.recorded("GET", "https://api.example.com/json", json: #"{"slideshow":{}}"#),
            CassetteVerifierTests.recorded("GET", "https://api.example.com/json", json: #"{"slideshow":{}}"#),
        ]
        // When the first is pointed at /uuid and the second excluded
        let report = await verify(entries) { options in
            options.mapRequest = { entry, request in
                guard entry == 0 else { return nil }
                var request = request
                request.path = request.path.replacingOccurrences(of: "/json", with: "/uuid")
                return request
            }
        }
        // Then the first reports /uuid's shape and the second is skipped
        #expect(
            report.differences.map(\.kind) == [.keyMissing(path: "slideshow"), .keyAdded(path: "uuid")])
        #expect(report.differences.first?.url == "https://api.example.com/uuid")
        #expect(report.skipped.map(\.reason) == [.excluded])
        #expect(live.receivedRequests.count == 1)
    }

    @Test func recordedFailuresAreSkippedAndLiveFailuresAreBreaking() async throws {
        // Given a recorded failure, and a recording whose live request now fails
        live.stub(.get, "/users", response: .failure(.transport, message: "Connection refused."))
        var failed = CassetteVerifierTests.recorded("GET", "https://api.example.com/down", json: "")
        failed.response = HAR.Response(
            status: 0, content: HAR.Content(mimeType: "x-unknown"), error: "transport: x")
        let report = await verify([failed, CassetteVerifierTests.recorded(json: "{}")])
        // Then the first is skipped and the second reported as a breaking failure
        #expect(report.skipped.map(\.entry) == [0])
        #expect(report.skipped.map(\.reason) == [.recordedFailure])
        #expect(report.differences.map(\.category) == [.failure])
        #expect(report.isBreaking())
    }

    @Test func anAddedKeyIsNotBreakingByDefault() async {
        live.stub(
            .get, "/users", response: .data(Data(#"{"a":1,"b":2}"#.utf8), contentType: "application/json"))
        let report = await verify([CassetteVerifierTests.recorded(json: #"{"a":1}"#)])
        #expect(report.differences.map(\.kind) == [.keyAdded(path: "b")])
        #expect(!report.isBreaking())
        #expect(report.isBreaking(for: [.added]))
    }

    @Test func theReportReadsAsEntryPathAndChange() async {
        // Given one changed entry and one skipped POST
        live.stub(
            .get, "/users",
            response: .data(
                Data(#"{"users":[{"address":{"city":"A"}}],"v":2}"#.utf8), contentType: "application/json"))
        let report = await verify([
            CassetteVerifierTests.recorded(json: #"{"users":[{"address":{"city":"A","zip":"1"}}]}"#),
            CassetteVerifierTests.recorded("POST", json: "{}", body: "{}"),
        ])
        // Then the text names the entry, the request, each path and what changed
        #expect(
            report.description == """
                Verified 1 of 2 entries: 2 differences (1 breaking), 1 skipped.
                entry 0: GET https://api.example.com/users
                  ✗ missing key users[0].address.zip
                  + added key v
                skipped entry 1: POST https://api.example.com/users: not sent: the method is not safe \
                and may change the server's state; send it with --send-entry 1 or every such entry with \
                --allow-unsafe-methods (allowsUnsafeEntries, allowsUnsafeMethods)
                """)
    }

    @Test func cancellingStopsTheVerificationAndSkipsWhatWasNotVerified() async throws {
        // Given a live dispatcher that answers after a second on a manual clock
        let clock = ManualClock()
        let slow = InMemoryDispatcher(latency: .seconds(1), clock: clock)
        slow.stub(.get, "/users", response: .data(Data("{}".utf8), contentType: "application/json"))
        let entry = CassetteVerifierTests.recorded(json: "{}")
        let har = HAR(creator: HAR.Creator(name: "test", version: "1"), entries: [entry, entry])
        let verifier = CassetteVerifier(har: har, dispatcher: slow)
        // When the task is cancelled while the first request waits
        let task = Task.detached { await verifier.verify() }
        await clock.waitForSleepers()
        task.cancel()
        let report = await task.value
        // Then neither entry counts as verified, and nothing is reported as a change
        #expect(report.verified.isEmpty)
        #expect(report.differences.isEmpty)
        #expect(report.skipped.map(\.reason) == [.cancelled, .cancelled])
        #expect(slow.receivedRequests.count == 1)
    }

    @Test func theVerifierAndItsReportCrossTasks() async {
        // Given a verifier with options and a mapping
        live.stub(.get, "/users", response: .data(Data(#"{"a":1}"#.utf8), contentType: "application/json"))
        let options = CassetteVerifier.Options { $0.mapRequest = { _, request in request } }
        let har = HAR(
            creator: HAR.Creator(name: "test", version: "1"),
            entries: [CassetteVerifierTests.recorded(json: #"{"b":1}"#)])
        let verifier = CassetteVerifier(har: har, dispatcher: live, options: options)
        // When it runs in a detached task and its report comes back
        let report: VerificationReport = await Task.detached { await verifier.verify() }.value
        let kinds = await Task.detached { report.differences.map(\.kind) }.value
        // Then the report arrives intact
        #expect(kinds == [.keyAdded(path: "a"), .keyMissing(path: "b")])
    }

    @Test func aCassetteThatCannotBeReadFailsWithCassette() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/cassette.har")
        do {
            _ = try CassetteVerifier(cassette: missing, dispatcher: live)
            Issue.record("expected a cassette error")
        } catch let error as NetworkError {
            #expect(error.code == .cassette)
            #expect(error.message.contains("cassette.har"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
