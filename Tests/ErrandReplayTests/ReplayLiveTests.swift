import Errand
import ErrandReplay
import ErrandTestSupport
import Foundation
import Testing

/// A session recorded against httpbin through `URLSessionDispatcher` replays offline with the
/// same results, and recording it again gives the same file apart from timestamps.
@Suite(.enabled(if: LiveServer.httpbinAvailable, LiveServer.skipReason))
struct ReplayLiveTests {
    /// What a request gave: a status and body, or an error code.
    struct Outcome: Equatable, CustomStringConvertible {
        var status: Int?
        var body: Data?
        var echo: Echo?
        var error: NetworkError.Code?

        var description: String {
            if let error { return "error \(error)" }
            return "\(status ?? 0), \(body?.count ?? 0) bytes" + (echo == nil ? "" : ", echo")
        }
    }

    /// The parts of httpbin's echo that a request determines.
    struct Echo: Decodable, Equatable {
        let args: [String: String]?
        let form: [String: String]?
        let files: [String: String]?
        let json: [String: String]?
        let data: String?
        let url: String?
        let headers: [String: String]?
    }

    static let png = Data((0..<256).map { UInt8($0) })

    /// A varied session: query, JSON, form, multipart, binary, PUT, DELETE, HEAD, 204, 404,
    /// gzip, a redirect, bearer auth, a repeat, a refused connection and a timeout.
    static let session: [RequestData] = [
        .get("/get").query("x", "1").query("y", "two words").header("X-Trace", "abc"),
        .post("/post").body(
            .raw(Data(#"{"name":"swift","u":"café"}"#.utf8), contentType: "application/json")),
        .post("/post").body(.form(["a": "1 2", "b": "x&y"])),
        .post("/post").body(
            .multipart(
                [.field("field", "value"), .file("file", fileName: "b.bin", data: png)],
                boundary: "errand-live")),
        .put("/put").body(.raw(png, contentType: "application/octet-stream")),
        .delete("/delete").query("id", "7"),
        .get("/bytes/64").query("seed", "42"),
        .get("/image/png"),
        .get("/gzip"),
        .get("/status/404"),
        .get("/status/204"),
        .head("/get"),
        .get("/redirect/2"),
        .get("/bearer").header("Authorization", "Bearer live-token-1234"),
        .get("/encoding/utf8"),
        .get("/response-headers").query("X-Custom", "yes"),
        .get("/get"),
        .get("/get"),
        .get("http://127.0.0.1:1/refused"),
        .get("/delay/10").timeout(1),
    ]

    static func run(_ session: [RequestData], through dispatcher: any NetworkDispatcher) async -> [Outcome] {
        var outcomes: [Outcome] = []
        for request in session {
            do {
                let response = try await dispatcher.dispatch(request)
                let echo = try? JSONDecoder().decode(Echo.self, from: response.body)
                outcomes.append(Outcome(status: response.statusCode, body: response.body, echo: echo))
            } catch let error as NetworkError {
                outcomes.append(Outcome(error: error.code))
            } catch {
                Issue.record(error)
            }
        }
        return outcomes
    }

    func record(to cassette: URL, base: URL) async -> [Outcome] {
        let recorder = ReplayDispatcher(
            cassette: cassette, baseURL: base, mode: .recordAll,
            upstream: URLSessionDispatcher(baseURL: base, timeout: 10), configuration: testConfiguration())
        return await Self.run(Self.session, through: recorder)
    }

    @Test func recordsASessionAndReplaysItOfflineWithTheSameResults() async throws {
        let base = try LiveServer.require(LiveServer.httpbin, "ERRAND_HTTPBIN_URL")
        let files = try CassetteFolder()
        defer { files.remove() }
        // Given a session recorded through URLSession against httpbin
        let live = await record(to: files.cassette, base: base)
        #expect(
            live.map(\.status).prefix(18) == [
                200, 200, 200, 200, 200, 200, 200, 200, 200, 404, 204, 200, 200, 200, 200, 200, 200, 200,
            ])
        #expect(live.suffix(2).map(\.error) == [.transport, .timedOut])
        #expect(live[2].echo?.form == ["a": "1 2", "b": "x&y"])
        #expect(
            live[8].body.map { String(decoding: $0, as: UTF8.self).contains(#""gzipped": true"#) } == true)
        // When it is replayed with an upstream that fails the test if called
        let forbidden = ForbiddenUpstream()
        let replayer = ReplayDispatcher(
            cassette: files.cassette, baseURL: base, mode: .replayOnly, upstream: forbidden,
            configuration: testConfiguration())
        let replayed = await Self.run(Self.session, through: replayer)
        // Then every result is the same, the bearer token aside, which the cassette never holds
        #expect(forbidden.callCount == 0)
        try replayer.assertAllPlayed()
        var expected = live
        let token = Data("live-token-1234".utf8)
        expected[13].body = live[13].body.map { body in
            var redacted = Data()
            var rest = body[...]
            while let range = rest.range(of: token) {
                redacted.append(rest[..<range.lowerBound])
                redacted.append(contentsOf: Array("<redacted>".utf8))
                rest = rest[range.upperBound...]
            }
            return redacted + rest
        }
        #expect(expected[13].body != live[13].body)
        for index in Self.session.indices {
            #expect(replayed[index] == expected[index], "request \(index): \(Self.session[index])")
        }
        #expect(try !files.bytes().contains("live-token-1234"))
    }

    @Test func recordingTheSameSessionAgainGivesTheSameFileApartFromTimestamps() async throws {
        let base = try LiveServer.require(LiveServer.httpbin, "ERRAND_HTTPBIN_URL")
        let first = try CassetteFolder()
        let second = try CassetteFolder()
        defer {
            first.remove()
            second.remove()
        }
        _ = await record(to: first.cassette, base: base)
        _ = await record(to: second.cassette, base: base)
        let left = String(decoding: try first.bytes(), as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        let right = String(decoding: try second.bytes(), as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(left.count == right.count)
        var differing: [String] = []
        for index in 0..<min(left.count, right.count) where left[index] != right[index] {
            let line = left[index].trimmingCharacters(in: .whitespaces)
            let timing = ["\"time\":", "\"wait\":", "\"send\":", "\"receive\":", "\"startedDateTime\":"]
            let isDate = index > 0 && left[index - 1].contains(#""name": "Date""#)
            if !(timing.contains { line.hasPrefix($0) } || isDate) { differing.append(String(left[index])) }
        }
        #expect(differing.isEmpty, "lines that differ beyond timestamps: \(differing)")
    }
}
