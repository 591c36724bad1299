import Errand
import ErrandPolicies
import ErrandTestSupport
import Foundation
import Testing

/// The logging policy against a server that answers with terminal escapes and forged entries,
/// and against httpbin echoing what it is sent.
@Suite struct LoggingLiveTests {
    @Test(
        .enabled(if: LiveServer.faultAvailable, LiveServer.skipReason),
        arguments: [LogLevel.basic, .headers, .body])
    func aServersEscapeSequencesAndForgedEntriesAreWrittenAsEscapes(level: LogLevel) async throws {
        // Given a server whose header holds an OSC 8 hyperlink and an OSC 0 title, and whose
        // body holds forged entries and a clear-screen
        let server = try LiveServer.require(LiveServer.fault, "ERRAND_FAULT_URL")
        let sink = CapturingSink()
        let dispatcher = URLSessionDispatcher(baseURL: server).logging(to: sink, level: level)

        // When it answers
        let response = try await dispatcher.dispatch(.get("/hostile-headers"))

        // Then the transport delivered them, the lines are whole entries, and no escape or
        // forged entry reaches the sink raw
        #expect(response.headers["X-Evil"]?.contains("\u{1B}]8;;") == true)
        #expect(LogEntryShape.problems(in: sink.captured) == [])
        if level >= .headers {
            #expect(sink.texts[1].contains("\n  X-Evil: " + #"\u{1B}]8;;https://evil.example\u{1B}\click"#))
        }
        if level == .body {
            #expect(
                sink.texts[1].contains("\n  ok\n  [errand #999] ← 200 GET /admin 1.0 ms 0 B\n  \\u{1B}[2J"))
        }
    }

    @Test(.enabled(if: LiveServer.httpbinAvailable, LiveServer.skipReason))
    func theEchoOfABodyCutShortKeepsItsSecret() async throws {
        // Given a JSON body cut short after its password, sent to a server that echoes it
        let server = try LiveServer.require(LiveServer.httpbin, "ERRAND_HTTPBIN_URL")
        let sink = CapturingSink()
        let dispatcher = URLSessionDispatcher(baseURL: server).logging(to: sink, level: .body)
        let body = Data(#"{"password": "S3cretPw9", "#.utf8)

        // When it is sent
        let response = try await dispatcher.dispatch(
            .post("/anything").body(.raw(body, contentType: "application/json")))

        // Then the answer repeats it, and no line shows it
        #expect(String(decoding: response.body, as: UTF8.self).contains("S3cretPw9"))
        #expect(!sink.texts.joined().contains("S3cretPw9"), "\(sink.texts)")
        #expect(sink.texts[1].contains(#"\"password\": \"<redacted>\""#))
        #expect(LogEntryShape.problems(in: sink.captured) == [])
    }
}
