import Errand
import Foundation
import Testing

@testable import ErrandReplay

/// A placeholder rarely has the length of the secret it hides: the lengths a recording
/// announces follow the redacted bodies, so a replay never promises bytes that are not there.
@Suite struct RedactedLengthTests {
    static let response = #"{"access_token":"a-rather-long-access-token-value-0123456789","expires_in":3600}"#
    static let request = #"{"user":"ada","password":"correct horse battery staple"}"#

    @Test func contentLengthAndSizesFollowTheRedactedBodies() throws {
        // Given an exchange whose bodies hold secrets, with their lengths announced
        var entry = HAR.Entry(
            startedDateTime: Date(timeIntervalSince1970: 0),
            request: HAR.Request(
                method: "POST", url: "https://api.example.com/login",
                headers: [HAR.Header(name: "content-length", value: String(Self.request.utf8.count))],
                postData: HAR.PostData(mimeType: "application/json", text: Self.request)),
            response: HAR.Response(status: 200))
        entry.response.headers = [
            HAR.Header(name: "Content-Type", value: "application/json"),
            HAR.Header(name: "Content-Length", value: String(Self.response.utf8.count)),
        ]
        entry.response.content = HAR.Content(body: Data(Self.response.utf8), mimeType: "application/json")
        let har = HAR(creator: HAR.Creator(name: "test", version: "1"), entries: [entry])

        // When it is redacted
        let redacted = har.redacted().entries[0]

        // Then every announced length is the redacted body's
        let responseBody = try #require(redacted.response.content.body)
        #expect(responseBody.count < Self.response.utf8.count)
        #expect(redacted.response.value(forHeader: "Content-Length") == String(responseBody.count))
        #expect(redacted.response.content.size == responseBody.count)
        let requestBody = try #require(redacted.request.postData?.body)
        #expect(requestBody.count < Self.request.utf8.count)
        #expect(redacted.request.value(forHeader: "Content-Length") == String(requestBody.count))
        #expect(redacted.request.bodySize == requestBody.count)
    }

    @Test func anUnchangedBodyKeepsItsHeaders() {
        // Given a response without secrets and a Content-Length that is not its own (a HEAD's)
        var entry = HAR.Entry(
            startedDateTime: Date(timeIntervalSince1970: 0),
            request: HAR.Request(method: "GET", url: "https://api.example.com/items"),
            response: HAR.Response(status: 200))
        entry.response.headers = [HAR.Header(name: "Content-Length", value: "999")]
        entry.response.content = HAR.Content(body: Data(#"{"id":1}"#.utf8), mimeType: "application/json")

        // When redacted, Then nothing is touched
        let har = HAR(creator: HAR.Creator(name: "test", version: "1"), entries: [entry])
        #expect(har.redacted().entries[0].response.value(forHeader: "Content-Length") == "999")
    }

    @Test func aReplayedRedactedAnswerAnnouncesItsOwnLength() async throws {
        // Given a recording made through an upstream that announces its body's length
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "errand-length-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cassette = folder.appending(path: "login.har")
        let upstream = InMemoryDispatcher()
        upstream.stub(
            .post, "/login",
            response: .status(
                200,
                headers: [
                    "Content-Type": "application/json", "Content-Length": String(Self.response.utf8.count),
                ],
                body: Data(Self.response.utf8)))
        let login = RequestData.post("/login").body(
            .raw(Data(Self.request.utf8), contentType: "application/json"))
        let recorder = ReplayDispatcher(
            cassette: cassette, baseURL: testBaseURL, mode: .once, upstream: upstream,
            configuration: testConfiguration())
        _ = try await recorder.dispatch(login)

        // When the redacted recording is replayed
        let replay = try ReplayDispatcher(
            loading: cassette, baseURL: testBaseURL, mode: .replayOnly, configuration: testConfiguration())
        let replayed = try await replay.dispatch(login)

        // Then the secret is gone and the length it announces is that of the body it carries
        #expect(!String(decoding: replayed.body, as: UTF8.self).contains("a-rather-long-access-token"))
        #expect(replayed.headers["Content-Length"] == String(replayed.body.count))
    }
}
