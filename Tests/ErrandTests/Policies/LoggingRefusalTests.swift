import Errand
import ErrandPolicies
import ErrandSync
import ErrandTestSupport
import Foundation
import Testing

/// A request that validation refuses is never logged as sent: its one entry says it was refused.
@Suite struct LoggingRefusalTests {
    /// A header value holding a line break, which no transport sends.
    static let invalid = RequestData.get("/x").header(
        "X-Note", "a\r\n[errand #999] ← 200 GET /admin 1.0 ms 0 B")

    @Test(arguments: [LogLevel.basic, .headers, .body])
    func aRefusedRequestIsLoggedOnceAsRefusedOnCallbacks(level: LogLevel) async throws {
        // Given a logging policy over a dispatcher that counts what reaches it
        let inner = InMemoryDispatcher()
        inner.stub(.get, "/x", response: .status(200))
        let sink = CapturingSink()
        let dispatcher = inner.logging(to: sink, level: level)
        let probe = CallbackProbe<NetworkResponse>()

        // When an invalid request is dispatched on callbacks
        dispatcher.dispatch(request: Self.invalid, onSuccess: probe.onSuccess, onError: probe.onError)

        // Then it fails once, with the validation error, and is never passed on
        let error = try await probe.failure()
        #expect(probe.deliveries.count == 1)
        #expect(error.code == .invalidRequest)
        #expect(inner.receivedRequests.isEmpty)
        // And its one entry says it was refused and why, escaped, and no request line claims it was sent
        #expect(sink.captured.map(\.event) == [.failure])
        #expect(
            sink.texts == [
                #"[errand #1] refused GET /x: The value of header "X-Note" cannot be sent: it holds CR (\r) at byte 1, "#
                    + "a control character a header value may not contain."
            ])
        #expect(LogEntryShape.problems(in: sink.captured) == [])
    }

    @Test func aRefusedRequestIsLoggedOnceAsRefusedWhenAwaited() async throws {
        // Given a logging policy
        let inner = InMemoryDispatcher()
        let sink = CapturingSink()
        let dispatcher = inner.logging(to: sink, level: .body)

        // When an invalid method is sent with async/await
        let request = RequestData(path: "/x", method: HTTPMethod(rawValue: "GET\n\u{1B}[2J"))
        await #expect(throws: NetworkError.self) { try await dispatcher.dispatch(request) }

        // Then there is one entry, the refusal, its method escaped
        #expect(sink.captured.map(\.event) == [.failure])
        #expect(
            sink.texts.first?.hasPrefix(
                #"[errand #1] refused GET\n\u{1B}[2J /x: The method "GET\n\u{1B}[2J""#) == true)
        #expect(LogEntryShape.problems(in: sink.captured) == [])
    }

    @Test func aValidRequestAfterARefusedOneKeepsCounting() async throws {
        // Given a logging policy that refused a request
        let inner = InMemoryDispatcher()
        inner.stub(.get, "/ok", response: .status(204))
        let sink = CapturingSink()
        let dispatcher = inner.logging(to: sink, level: .basic, clock: ManualClock())
        _ = try? await dispatcher.dispatch(Self.invalid)

        // When a valid request follows
        _ = try await dispatcher.dispatch(.get("/ok"))

        // Then it is logged as sent and answered, under the next number
        #expect(sink.texts.dropFirst() == ["[errand #2] → GET /ok", "[errand #2] ← 204 GET /ok 0.0 ms 0 B"])
    }

    @Test func aRefusalQuotesSeparatorsAndBidiOverridesAsEscapes() throws {
        // Given a method holding a line separator and a right-to-left override
        let request = RequestData(path: "/x", method: HTTPMethod(rawValue: "GET\u{2028}\u{202E}"))

        // When it is checked
        let error = try #require(throws: NetworkError.self) { try request.validate() }

        // Then the message quotes it with both escaped, as every log line would
        #expect(error.message.contains(#"The method "GET\u{2028}\u{202E}""#))
        #expect(!error.message.unicodeScalars.contains(where: EscapedText.needsEscape))
    }
}
