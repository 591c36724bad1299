import Errand
import ErrandReplay
import Foundation
import Testing

/// Verification of a cassette against a live dispatcher (here an in-memory one): what is
/// compared, what is sent, and how the report reads.
@Suite struct CassetteVerifierTests {
    let live = InMemoryDispatcher()

    /// A recorded exchange answering `json` with `application/json`.
    static func recorded(
        _ method: String = "GET", _ url: String = "https://api.example.com/users", status: Int = 200,
        json: String, headers: [HAR.Header] = [], requestHeaders: [HAR.Header] = [], body: String? = nil
    ) -> HAR.Entry {
        HAR.Entry(
            startedDateTime: Date(timeIntervalSince1970: 1_700_000_000), time: 10,
            request: HAR.Request(
                method: method, url: url, headers: requestHeaders,
                postData: body.map { HAR.PostData(mimeType: "application/json", text: $0) }),
            response: HAR.Response(
                status: status,
                headers: [HAR.Header(name: "Content-Type", value: "application/json")] + headers,
                content: HAR.Content(body: Data(json.utf8), mimeType: "application/json")))
    }

    func verify(
        _ entries: [HAR.Entry], _ configure: (inout CassetteVerifier.Options) -> Void = { _ in }
    ) async -> VerificationReport {
        let har = HAR(creator: HAR.Creator(name: "test", version: "1"), entries: entries)
        return await CassetteVerifier(
            har: har, dispatcher: live, options: CassetteVerifier.Options(configure)
        )
        .verify()
    }

    func answer(_ path: String = "/users", status: Int = 200, json: String, headers: HTTPHeaders = [:]) {
        live.stub(
            .get, path,
            response: .data(
                Data(json.utf8), status: status, contentType: "application/json", headers: headers))
    }

    @Test func sameShapeWithOtherValuesReportsNothing() async {
        // Given a recording and a live answer with other values in the same shape
        answer(json: #"{"users":[{"id":2,"name":"Bo","tags":["x"]}],"total":1,"at":"2026-12-01"}"#)
        // When the cassette is verified
        let report = await verify([
            Self.recorded(json: #"{"users":[{"id":1,"name":"Ada","tags":[]}],"total":9,"at":"2020-01-01"}"#)
        ])
        // Then nothing differs, and the entry counts as verified
        #expect(report.differences.isEmpty)
        #expect(report.verified == [0])
        #expect(!report.isBreaking(for: Set(VerificationReport.Category.allCases)))
    }

    @Test func reportsEachChangeOfShapeWithItsPath() async {
        // Given users whose address lost `zip`, gained `postcode`, whose id became a string,
        // and a `next` that became null
        answer(
            json: #"{"users":[{"id":"1","address":{"city":"A","postcode":"9"}}],"count":1,"next":null}"#)
        let report = await verify([
            Self.recorded(
                json: #"{"users":[{"id":1,"address":{"city":"A","zip":"1"}}],"count":1,"next":"p2"}"#)
        ])
        // Then each change is reported with its path
        #expect(
            report.differences.map(\.kind) == [
                .becameNull(path: "next"),
                .keyAdded(path: "users[0].address.postcode"),
                .keyMissing(path: "users[0].address.zip"),
                .typeChanged(path: "users[0].id", from: .number, to: .string),
            ])
        #expect(report.differences.allSatisfy { $0.entry == 0 && $0.url == "https://api.example.com/users" })
        #expect(report.isBreaking())
        #expect(report.isBreaking(for: [.missing]))
    }

    @Test func arraysCompareTheUnionOfTheirElementsAndNameTheFirstThatShowsTheChange() async {
        // Given a recording where only the second element had `b`, and a live answer where none
        // has it and the third has a new `c`
        answer(json: #"[{"a":1},{"a":2},{"a":3,"c":null}]"#)
        let report = await verify([Self.recorded(json: #"[{"a":1},{"a":2,"b":true}]"#)])
        // Then `b`, which not every element had, is not missing, and `c` is named at the element
        // that has it
        #expect(report.differences.map(\.kind) == [.keyAdded(path: "[2].c")])
    }

    @Test func anEmptyArrayOrANullIsNoChangeOfType() async {
        // Given empty arrays and nulls on one side and values on the other
        answer(json: #"{"items":[{"x":1}],"note":"hi","list":[]}"#)
        let report = await verify([Self.recorded(json: #"{"items":[],"note":null,"list":[1,2]}"#)])
        // Then nothing differs
        #expect(report.differences.isEmpty)
    }

    @Test func aStatusChangeIsReportedWithoutComparingTheBody() async {
        answer(status: 404, json: #"{"error":"not found"}"#)
        let report = await verify([Self.recorded(json: #"{"users":[]}"#)])
        #expect(report.differences.map(\.kind) == [.statusChanged(from: 200, to: 404)])
        #expect(report.differences(.status).count == 1)
    }

    @Test func namedHeadersAreComparedByValue() async {
        answer(json: "{}", headers: ["X-Version": "2"])
        let entries = [Self.recorded(json: "{}", headers: [HAR.Header(name: "X-Version", value: "1")])]
        #expect(await verify(entries).differences.isEmpty)
        let report = await verify(entries) { $0.headers = ["x-version", "X-Gone"] }
        #expect(report.differences.map(\.kind) == [.headerChanged(name: "x-version", from: "1", to: "2")])
    }

    @Test func otherBodiesAreComparedOnlyWhenAsked() async {
        // Given a text body that changed
        live.stub(.get, "/page", response: .text("new"))
        var entry = Self.recorded("GET", "https://api.example.com/page", json: "")
        entry.response.content = HAR.Content(body: Data("old".utf8), mimeType: "text/plain")
        entry.response.headers = [HAR.Header(name: "Content-Type", value: "text/plain")]
        // Then it differs only when bodies are compared
        #expect(await verify([entry]).differences.isEmpty)
        let report = await verify([entry]) { $0.comparesOtherBodies = true }
        #expect(report.differences.map(\.category) == [.body])
    }

    @Test func aJSONBodyThatIsNoLongerJSONIsABodyChange() async {
        live.stub(.get, "/users", response: .text("<html>maintenance</html>", contentType: "text/html"))
        let report = await verify([Self.recorded(json: #"{"users":[]}"#)])
        guard case .bodyChanged(let detail) = report.differences.first?.kind else {
            Issue.record("expected a body change, got \(report.differences)")
            return
        }
        #expect(detail.contains("not JSON"))
        #expect(report.isBreaking())
    }

    @Test func ignoredPathsAndTheMatchingsIgnoreListAreLeftOut() async {
        // Given a live answer without the volatile `meta` and with another `trace` id key
        answer(json: #"{"a":1,"headers":{"X-Trace-B":"2"}}"#)
        let entries = [Self.recorded(json: #"{"a":1,"meta":{"at":1},"headers":{"X-Trace-A":"1"}}"#)]
        #expect(await verify(entries).differences.count == 3)
        // When those paths are ignored, directly or through a replay's matching rules
        let direct = await verify(entries) { $0.ignoredBodyPaths = ["meta", "headers.*"] }
        let matching = ReplayDispatcher.Matching(ignoredBodyPaths: ["meta", "headers.*"])
        let har = HAR(creator: HAR.Creator(name: "test", version: "1"), entries: entries)
        let adopted = await CassetteVerifier(
            har: har, dispatcher: live, options: CassetteVerifier.Options(matching: matching)
        ).verify()
        // Then nothing differs
        #expect(direct.differences.isEmpty)
        #expect(adopted.differences.isEmpty)
    }

    @Test func aPOSTIsSkippedUnlessItsEntryOptsIn() async {
        // Given a recorded POST
        live.stub(.post, "/users", response: .data(Data(#"{"id":1}"#.utf8), contentType: "application/json"))
        let entries = [Self.recorded("POST", json: #"{"id":1}"#, body: #"{"name":"Ada"}"#)]
        // When it is verified without opting in, Then it is skipped and never sent
        let skipped = await verify(entries)
        #expect(skipped.skipped.map(\.reason) == [.unsafeMethod])
        #expect(skipped.verified.isEmpty)
        #expect(live.receivedRequests.isEmpty)
        // When its entry opts in, Then it is sent with its body and compared
        let sent = await verify(entries) { $0.allowsUnsafeEntries = [0] }
        #expect(sent.verified == [0])
        #expect(sent.differences.isEmpty)
        #expect(live.receivedRequests.first?.body?.data == Data(#"{"name":"Ada"}"#.utf8))
    }
}
