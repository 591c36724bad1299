import ErrandReplay
import Foundation
import Testing

/// The writer is strict (every required field), deterministic (same bytes) and atomic.
@Suite struct HARWriterTests {
    @Test func writesTheExactExpectedFileForASmallArchive() throws {
        // Given a small archive built in code
        let har = Self.sample()
        // When written, Then the bytes are exactly the golden file: HAR order, UTC millis
        let written = try String(decoding: har.encoded(redaction: .none), as: UTF8.self)
        #expect(written == Self.golden)
    }

    @Test func writesEveryFieldHAR12Requires() throws {
        // Given an archive with nothing optional set
        let minimal = HAR(
            creator: HAR.Creator(name: "Errand", version: "0.1"),
            entries: [
                HAR.Entry(
                    startedDateTime: Date(timeIntervalSince1970: 0),
                    request: HAR.Request(method: "GET", url: "https://a.example/"),
                    response: HAR.Response(status: 200)
                )
            ]
        )
        // When written and parsed as plain JSON
        let object = try JSONSerialization.jsonObject(with: minimal.encoded())
        let log = try #require((object as? [String: Any])?["log"] as? [String: Any])
        let entry = try #require((log["entries"] as? [[String: Any]])?.first)
        let request = try #require(entry["request"] as? [String: Any])
        let response = try #require(entry["response"] as? [String: Any])
        let content = try #require(response["content"] as? [String: Any])
        let timings = try #require(entry["timings"] as? [String: Any])
        // Then every required field is present
        #expect(Set(log.keys).isSuperset(of: ["version", "creator", "entries"]))
        #expect(log["version"] as? String == "1.2")
        #expect(
            Set(entry.keys).isSuperset(of: [
                "startedDateTime", "time", "request", "response", "cache", "timings",
            ]))
        #expect(
            Set(request.keys).isSuperset(of: [
                "method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize",
                "bodySize",
            ]))
        #expect(
            Set(response.keys).isSuperset(of: [
                "status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL",
                "headersSize",
                "bodySize",
            ]))
        #expect(Set(content.keys).isSuperset(of: ["size", "mimeType"]))
        #expect(Set(timings.keys).isSuperset(of: ["send", "wait", "receive"]))
        #expect(entry["startedDateTime"] as? String == "1970-01-01T00:00:00.000Z")
    }

    @Test func writesTheSameArchiveToTheSameBytes() throws {
        let har = try HAR(contentsOf: Fixtures.url("chrome-http2.har"))
        #expect(try har.encoded() == har.encoded())
        #expect(try har.redacted().encoded(redaction: .none) == har.encoded())
    }

    @Test(arguments: [
        "mitmproxy-httpbin.har", "chrome-http2.har", "firefox-minimal.har", "base64-bodies.har",
        "mitmproxy-latin1.har", "failed-request.har", "dates.har",
    ])
    func writeReadWriteIsByteIdentical(fixture: String) throws {
        // Given a real export, When written, read back and written again
        let original = try HAR(contentsOf: Fixtures.url(fixture))
        for redaction in [HAR.Redaction.none, .default] {
            let first = try original.encoded(redaction: redaction)
            let reread = try HAR(data: first)
            let second = try reread.encoded(redaction: redaction)
            // Then the bytes are identical, and every body and entry survived
            #expect(first == second)
            #expect(reread.entries.count == original.entries.count)
            if redaction == .none {
                #expect(reread.entries.map(\.request.body) == original.entries.map(\.request.body))
                #expect(reread.entries.map(\.response.body) == original.entries.map(\.response.body))
                #expect(reread.entries.map(\.request.headers) == original.entries.map(\.request.headers))
            }
        }
    }

    @Test func readsBackAnArchiveBuiltInCodeAsAnEqualValue() throws {
        let har = Self.sample()
        #expect(try HAR(data: har.encoded(redaction: .none)) == har)
    }

    @Test func keepsEntriesInRecordedOrderNotDateOrder() throws {
        // Given entries recorded out of date order
        var har = Self.sample()
        var earlier = har.entries[0]
        earlier.startedDateTime = Date(timeIntervalSince1970: 0)
        earlier.request.url = "https://api.example.com/second"
        har.entries.append(earlier)
        // Then they are written in the order of the array
        let reread = try HAR(data: har.encoded())
        #expect(
            reread.entries.map(\.request.url) == [
                "https://api.example.com/users?page=2", "https://api.example.com/second",
            ])
    }

    @Test func normalisesTimestampsToUTCMilliseconds() throws {
        let har = try HAR(contentsOf: Fixtures.url("failed-request.har"))
        let written = try String(decoding: har.encoded(), as: UTF8.self)
        // 08:15:30.250+07:00 is 01:15:30.250Z
        #expect(written.contains(#""startedDateTime": "2024-06-01T01:15:30.250Z""#))
    }

    @Test func writesAFileAtomicallyAndCreatesMissingFolders() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("Cassettes/Suite/test.har")
        try Self.sample().write(to: url)
        #expect(try HAR(contentsOf: url).entries.count == 1)
        #expect(try Data(contentsOf: url) == Self.sample().encoded())
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path) == [
                "test.har"
            ])
    }

    @Test func leavesThePreviousFileWholeWhenEncodingFails() throws {
        // Given a cassette on disk
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("cassette.har")
        try Self.sample().write(to: url)
        let before = try Data(contentsOf: url)
        // When writing an archive that cannot be encoded
        var broken = Self.sample()
        broken.entries[0].time = .infinity
        do {
            try broken.write(to: url)
            Issue.record("wrote an infinite time")
        } catch {
            // Then the error names the field, and the old file is untouched with no leftovers
            #expect(error.code == .unencodableValue)
            #expect(error.path == "log.entries[0].time")
            #expect(error.entryIndex == 0)
            #expect(error.file == url)
            #expect(error.description.hasPrefix("Cannot write HAR file"))
        }
        #expect(try Data(contentsOf: url) == before)
        #expect(try folder.fileNames() == ["cassette.har"])
    }

    @Test func leavesNoTemporaryFileWhenTheRenameFails() throws {
        // Given a destination that is a non-empty folder, which rename cannot replace
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("taken.har")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: url.appendingPathComponent("inside"))
        // When writing, Then the error says so and nothing is left behind
        #expect(throws: HARError.self) { try Self.sample().write(to: url) }
        do {
            try Self.sample().write(to: url)
        } catch {
            #expect(error.code == .fileUnwritable)
        }
        #expect(try folder.fileNames() == ["taken.har"])
    }

    @Test func rejectsDatesOutsideYearsZeroToNineThousand() {
        var har = Self.sample()
        har.entries[0].startedDateTime = Date(timeIntervalSince1970: 300_000_000_000)
        do {
            _ = try har.encoded()
            Issue.record("wrote year 11476")
        } catch {
            #expect(error.code == .unencodableValue)
            #expect(error.path == "log.entries[0].startedDateTime")
        }
        har.entries[0].startedDateTime = Date(timeIntervalSince1970: .nan)
        #expect(throws: HARError.self) { try har.encoded() }
    }

    static func sample() -> HAR {
        let request = HAR.Request(
            method: "POST",
            url: "https://api.example.com/users?page=2",
            headers: [HAR.Header(name: "Content-Type", value: "application/json")],
            postData: HAR.PostData(mimeType: "application/json", text: #"{"name":"Zoë"}"#)
        )
        let response = HAR.Response(
            status: 201,
            statusText: "Created",
            headers: [HAR.Header(name: "Content-Type", value: "application/octet-stream")],
            content: HAR.Content(body: Data([0x00, 0x01, 0xFE]), mimeType: "application/octet-stream")
        )
        let entry = HAR.Entry(
            startedDateTime: Date(timeIntervalSince1970: 1_706_702_400.125),
            request: request,
            response: response,
            timings: HAR.Timings(send: 1, wait: 10.5, receive: 0.25)
        )
        return HAR(creator: HAR.Creator(name: "Errand", version: "0.1"), entries: [entry])
    }

    static let golden = """
        {
          "log": {
            "version": "1.2",
            "creator": {
              "name": "Errand",
              "version": "0.1"
            },
            "entries": [
              {
                "startedDateTime": "2024-01-31T12:00:00.125Z",
                "time": 11.75,
                "request": {
                  "method": "POST",
                  "url": "https://api.example.com/users?page=2",
                  "httpVersion": "HTTP/1.1",
                  "cookies": [],
                  "headers": [
                    {
                      "name": "Content-Type",
                      "value": "application/json"
                    }
                  ],
                  "queryString": [
                    {
                      "name": "page",
                      "value": "2"
                    }
                  ],
                  "postData": {
                    "mimeType": "application/json",
                    "params": [],
                    "text": "{\\"name\\":\\"Zoë\\"}"
                  },
                  "headersSize": -1,
                  "bodySize": 15
                },
                "response": {
                  "status": 201,
                  "statusText": "Created",
                  "httpVersion": "HTTP/1.1",
                  "cookies": [],
                  "headers": [
                    {
                      "name": "Content-Type",
                      "value": "application/octet-stream"
                    }
                  ],
                  "content": {
                    "size": 3,
                    "mimeType": "application/octet-stream",
                    "text": "AAH+",
                    "encoding": "base64"
                  },
                  "redirectURL": "",
                  "headersSize": -1,
                  "bodySize": 3
                },
                "cache": {},
                "timings": {
                  "blocked": -1,
                  "dns": -1,
                  "connect": -1,
                  "send": 1,
                  "wait": 10.5,
                  "receive": 0.25,
                  "ssl": -1
                }
              }
            ]
          }
        }

        """
}
