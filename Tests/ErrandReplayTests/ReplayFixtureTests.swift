import Errand
import ErrandReplay
import Foundation
import Testing

/// The real mitmproxy capture of httpbin replays: every entry answers with what was recorded.
@Suite struct ReplayFixtureTests {
    @Test func answersEveryEntryOfTheMitmproxyCaptureByteForByte() async throws {
        // Given the capture as a cassette, replay only, and an upstream that must not be called
        let url = try Fixtures.url("mitmproxy-httpbin.har")
        let raw = try Self.rawEntries(of: url)
        let har = try HAR(contentsOf: url)
        let upstream = ForbiddenUpstream()
        let replay = ReplayDispatcher(
            cassette: url, mode: .replayOnly, upstream: upstream, configuration: testConfiguration())
        #expect(raw.count == 20)
        // When each recorded request is sent again, in recorded order
        for (index, entry) in har.entries.enumerated() {
            let response = try await replay.dispatch(Self.request(for: entry.request))
            // Then the status, the headers and the body bytes are those in the file
            let expected = raw[index]
            #expect(response.statusCode == expected.status, "entry \(index)")
            #expect(response.body == expected.body, "entry \(index)")
            #expect(response.url?.absoluteString == entry.request.url)
            let headers = response.headers.fields.map { "\($0.name): \($0.value)" }
            if [4, 19].contains(index) {
                // The gzip entries: stored decoded, so their stale encoding headers are corrected
                let corrected = expected.headers.filter { !$0.hasPrefix("Content-Encoding:") }
                    .map { $0.hasPrefix("Content-Length:") ? "Content-Length: \(expected.body.count)" : $0 }
                #expect(headers == corrected, "entry \(index)")
            } else {
                #expect(headers == expected.headers, "entry \(index)")
            }
        }
        // Then every recording was played and nothing reached the upstream
        try replay.assertAllPlayed()
        #expect(upstream.callCount == 0)
    }

    @Test func answersTheRedirectWithItsOwnResponseWhenItsTargetWasNotRecorded() async throws {
        // Given the capture, whose 302 to /get has no GET /get recorded after it
        let replay = ReplayDispatcher(
            cassette: try Fixtures.url("mitmproxy-httpbin.har"), mode: .replayOnly,
            configuration: testConfiguration())
        // When the redirecting URL is requested
        let response = try await replay.dispatch(.get("http://127.0.0.1:8089/redirect/1"))
        // Then the 302 itself comes back
        #expect(response.statusCode == 302)
        #expect(response.headers["Location"] == "/get")
    }

    @Test func answersInAnyOrderButKeepsTheOrderOfRepeats() async throws {
        // Given the capture, whose two GET /gzip entries differ in their echoed headers
        let replay = ReplayDispatcher(
            cassette: try Fixtures.url("mitmproxy-httpbin.har"), mode: .replayOnly,
            configuration: testConfiguration())
        // When requests come out of recorded order
        let delete = try await replay.dispatch(.delete("http://127.0.0.1:8089/delete?id=7"))
        let firstGzip = try await replay.dispatch(.get("http://127.0.0.1:8089/gzip"))
        let png = try await replay.dispatch(.get("http://127.0.0.1:8089/image/png"))
        let secondGzip = try await replay.dispatch(.get("http://127.0.0.1:8089/gzip"))
        // Then each gets its own recording, and the repeats come in recorded order
        #expect(delete.text.contains(#""id": "7""#))
        #expect(png.body.count == 8_090)
        #expect(firstGzip.body.count == 257)
        #expect(secondGzip.body.count == 341)
    }

    /// The request a recorded request stands for: method, URL, headers and body.
    static func request(for recorded: HAR.Request) -> RequestData {
        var request = RequestData(path: recorded.url, method: HTTPMethod(rawValue: recorded.method))
        for header in recorded.matchableHeaders where !header.hasName("Content-Type") {
            request.headers.add(header.name, header.value)
        }
        if let postData = recorded.postData {
            request.body = .raw(postData.body ?? Data(), contentType: postData.mimeType)
        }
        return request
    }

    /// The status, `Name: value` headers and body bytes of each entry, read with
    /// `JSONSerialization` and `Data(base64Encoded:)`, independently of the HAR reader.
    static func rawEntries(of url: URL) throws -> [(status: Int, headers: [String], body: Data)] {
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let log = try #require(root["log"] as? [String: Any])
        let entries = try #require(log["entries"] as? [[String: Any]])
        return try entries.map { entry in
            let response = try #require(entry["response"] as? [String: Any])
            let headers = try #require(response["headers"] as? [[String: String]])
            let content = try #require(response["content"] as? [String: Any])
            let text = content["text"] as? String ?? ""
            let body =
                content["encoding"] as? String == "base64"
                ? try #require(Data(base64Encoded: text)) : Data(text.utf8)
            return (
                try #require(response["status"] as? Int),
                headers.map { "\($0["name"] ?? ""): \($0["value"] ?? "")" }, body
            )
        }
    }
}
