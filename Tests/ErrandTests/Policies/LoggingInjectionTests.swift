import Errand
import ErrandPolicies
import Foundation
import Testing

/// A dispatcher that answers every request it is given with one outcome, checking nothing, as a
/// hostile server would answer.
struct AnsweringDispatcher: NetworkDispatcher {
    let outcome: Result<NetworkResponse, NetworkError>

    func dispatch(
        request: RequestData,
        onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        switch outcome {
        case .success(let response): onSuccess(response)
        case .failure(let error): onError(error)
        }
        return CancellableAction.none
    }
}

/// Every place a caller or a server can put text into a log entry, each with line breaks that
/// forge an entry and terminal escapes.
enum HostileLogVector: String, CaseIterable, Sendable {
    case path, queryInPath, absoluteURL, queryItem, method, headerName, headerValue, contentType
    case requestBody, serverHeaders, responseBody, prettyJSONBody, binaryBody, unreadableBody
    case failureWithResponse

    static let hostile = LogEntryShape.forgery + LogEntryShape.escapes

    var request: RequestData {
        let hostile = Self.hostile
        switch self {
        case .path: return .get("/a\(hostile)")
        case .queryInPath: return .get("/search?q=\(hostile)&page=2")
        case .absoluteURL: return .get("https://api.example.com/x\(hostile)")
        case .queryItem: return .get("/x").query("q\(hostile)", hostile)
        case .method: return RequestData(path: "/x", method: HTTPMethod(rawValue: "GET\(hostile)"))
        case .headerName: return .get("/x").header("X-A\(hostile)", "v")
        case .headerValue: return .get("/x").header("X-Note", "a\(hostile)")
        case .contentType:
            return .post("/x").body(.raw(Data("a".utf8), contentType: "text/plain\(hostile)"))
        case .requestBody: return .post("/x").body(.text("hello\(hostile)"))
        default: return .post("/x").body(.json(["name": "ann\(hostile)"]))
        }
    }

    var outcome: Result<NetworkResponse, NetworkError> {
        let hostile = Self.hostile
        var headers: HTTPHeaders = ["Content-Type": "text/plain"]
        var body = Data("ok".utf8)
        switch self {
        case .serverHeaders:
            headers = ["X-Evil": hostile, "X-Forged\(hostile)": "v", "Content-Type": "text/plain\(hostile)"]
        case .responseBody:
            body = Data("ok\(hostile)".utf8)
        case .prettyJSONBody:
            headers = ["Content-Type": "application/json"]
            body = Data("{\n  \"a\": \"x\",\n  \"nested\": {\r\n    \"b\": [1, 2]\n  }\n}\n".utf8)
        case .binaryBody:
            headers = ["Content-Type": "image/png\(hostile)"]
            body = Data([0x89, 0x50, 0x00, 0xFF])
        case .unreadableBody:
            headers = ["Content-Type": "application/json\(hostile)"]
            body = Data("{\"token\": \"t\(hostile)".utf8)
        case .failureWithResponse:
            let response = NetworkResponse(
                statusCode: 502, headers: ["X-Evil": hostile], body: Data("bad\(hostile)".utf8))
            return .failure(NetworkError(code: .unacceptableStatus, message: hostile, response: response))
        default: break
        }
        return .success(NetworkResponse(statusCode: 200, headers: headers, body: body))
    }
}

@Suite struct LoggingInjectionTests {
    @Test(arguments: HostileLogVector.allCases, LogLevel.allCases)
    func nothingACallerOrServerSendsStartsALineOrRunsAnEscape(vector: HostileLogVector, level: LogLevel) async
    {
        // Given a logging policy over a server that answers with hostile text
        let sink = CapturingSink()
        let dispatcher = AnsweringDispatcher(outcome: vector.outcome).logging(to: sink, level: level)

        // When the hostile request is sent
        _ = try? await dispatcher.dispatch(vector.request)

        // Then every entry is one prefixed line with indented continuations, and no forged line
        // or raw control character reaches the sink
        #expect(LogEntryShape.problems(in: sink.captured) == [])
        #expect(sink.captured.count == (level == .none ? 0 : vector.isRefused ? 1 : 2))
    }

    @Test func escapesAreShownRatherThanDropped() async throws {
        // Given a path and a server header holding a line break and an OSC 8 hyperlink
        let response = NetworkResponse(statusCode: 200, headers: ["X-Link": "\u{1B}]8;;https://e\u{1B}\\x"])
        let sink = CapturingSink()
        let dispatcher = AnsweringDispatcher(outcome: .success(response)).logging(to: sink, level: .headers)

        // When it is logged
        _ = try await dispatcher.dispatch(.get("/a\r\nb"))

        // Then both are there to read, as escapes
        #expect(sink.texts[0] == #"[errand #1] → GET /a\r\nb"#)
        #expect(sink.texts[1].hasSuffix("\n  X-Link: " + #"\u{1B}]8;;https://e\u{1B}\x"#))
    }

    @Test func aPrettyPrintedBodyKeepsTheIndentOnEveryLine() async throws {
        // Given a pretty-printed JSON answer, with CR LF line ends on some lines
        let sink = CapturingSink()
        let outcome = HostileLogVector.prettyJSONBody.outcome
        let dispatcher = AnsweringDispatcher(outcome: outcome).logging(to: sink, level: .body)

        // When it is logged at body level
        _ = try await dispatcher.dispatch(.get("/x"))

        // Then each of its lines is indented by two spaces under the entry, its own indent kept
        #expect(
            sink.texts[1].hasSuffix(
                "\n  {\n    \"a\": \"x\",\n    \"nested\": {\n      \"b\": [1, 2]\n    }\n  }\n  "))
    }

    @Test func aStreamSinkWritesEachEntryAsGivenAndNothingElse() throws {
        // Given a stream sink over a file
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "errand-log-\(UUID().uuidString)")
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: url) }
        let handle = try FileHandle(forWritingTo: url)
        let sink = StreamLogSink(handle)
        let entries = [
            LogLine(requestID: 1, level: .body, event: .request, text: "[errand #1] → GET /a\\r\\n\n  X: 1"),
            LogLine(
                requestID: 1, level: .body, event: .response, text: "[errand #1] ← 200 GET /a 1.0 ms 0 B"),
        ]

        // When it writes them
        for entry in entries { sink.log(entry) }
        try handle.close()

        // Then the file holds each entry's text and a line break, byte for byte
        let written = try Data(contentsOf: url)
        #expect(written == Data(entries.map { $0.text + "\n" }.joined().utf8))
    }
}

extension HostileLogVector {
    /// Whether validation refuses the request, so that it gets one entry and is never sent.
    var isRefused: Bool { [.method, .headerName, .headerValue, .contentType].contains(self) }
}
