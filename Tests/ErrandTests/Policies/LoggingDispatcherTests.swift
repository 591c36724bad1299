import Errand
import ErrandPolicies
import ErrandSync
import ErrandTestSupport
import Foundation
import Testing

/// Keeps every entry a logging policy writes.
final class CapturingSink: LogSink {
    private let lines = Locked<[LogLine]>([])

    var captured: [LogLine] { lines.withLock { $0 } }
    var texts: [String] { captured.map(\.text) }

    func log(_ line: LogLine) { lines.withLock { $0.append(line) } }
}

@Suite struct LoggingDispatcherTests {
    struct Login: Encodable {
        struct User: Encodable {
            struct Credentials: Encodable { let password: String }
            let name: String
            let credentials: Credentials
        }
        let user: User
    }

    @Test func noSecretLeavesThePolicyAtBodyLevel() async throws {
        // Given requests and a response carrying secrets in every place a vocabulary covers
        let inner = InMemoryDispatcher()
        inner.stub(
            .post, "/login",
            response: .json(
                ["refresh_token": "SECRET-REFRESH", "expires_in": "60"],
                headers: ["Set-Cookie": "s=SECRET-SET"]))
        inner.stub(.post, "/token", response: .status(204))
        let sink = CapturingSink()
        let dispatcher = inner.logging(to: sink, level: .body)
        let login = RequestData.post("/login")
            .header("Authorization", "Bearer SECRET-AUTH")
            .header("Cookie", "session=SECRET-COOKIE")
            .query("accessToken", "SECRET-QUERY")
            .body(.json(Login(user: .init(name: "ann", credentials: .init(password: "SECRET-PASSWORD")))))
        let token = RequestData.post("/token").body(
            .form(["grant_type": "client_credentials", "client_secret": "SECRET-CLIENT"]))

        // When both are sent
        _ = try await dispatcher.dispatch(login)
        _ = try await dispatcher.dispatch(token)

        // Then the lines show what happened and none of the secrets
        let all = sink.texts.joined(separator: "\n")
        for secret in [
            "SECRET-AUTH", "SECRET-COOKIE", "SECRET-QUERY", "SECRET-PASSWORD", "SECRET-CLIENT",
            "SECRET-REFRESH", "SECRET-SET",
        ] {
            #expect(!all.contains(secret), "\(secret) leaked")
        }
        #expect(all.contains("[errand #1] → POST /login?accessToken=<redacted>"))
        #expect(all.contains("[errand #1] ← 200 POST /login"))
        #expect(all.contains("[errand #2] ← 204 POST /token"))
        #expect(all.contains("\"name\":\"ann\""))
        #expect(all.contains("grant_type=client_credentials"))
        #expect(all.contains("\"expires_in\":\"60\""))
    }

    @Test func aFormBodyIsShownAsWrittenWithOnlyItsSecretValuesReplaced() async throws {
        // Given a form body written by hand, with an unbalanced escape, a bare name and a secret
        // whose value holds an escaped `+` and a `+` that the server reads as a space
        let inner = InMemoryDispatcher()
        inner.stub(.post, "/token", response: .status(204))
        let sink = CapturingSink()
        let dispatcher = inner.logging(to: sink, level: .body)
        let body = Data("note=a%zz&client_secret=S%2BCRET+X&bare".utf8)
        let request = RequestData.post("/token").body(
            .raw(body, contentType: "application/x-www-form-urlencoded"))

        // When it is sent
        _ = try await dispatcher.dispatch(request)

        // Then the secret's value is replaced, every other byte is as written, and the value
        // as the server reads it appears nowhere
        let all = sink.texts.joined(separator: "\n")
        #expect(all.contains("note=a%zz&client_secret=%3Credacted%3E&bare"), "\(all)")
        #expect(!all.contains("S%2BCRET"))
        #expect(!all.contains("S+CRET X"))
    }

    @Test func interleavedRequestsAreToldApartByTheirIDs() async throws {
        // Given a slow and a fast request, timed on one manual clock
        let clock = ManualClock()
        let inner = InMemoryDispatcher(clock: clock)
        inner.stub(
            .get, "/slow", response: InMemoryDispatcher.Response.text("slow").delayed(by: .milliseconds(100)))
        inner.stub(
            .get, "/fast", response: InMemoryDispatcher.Response.text("fast!").delayed(by: .milliseconds(10)))
        let sink = CapturingSink()
        let dispatcher = inner.logging(to: sink, clock: clock)

        // When the slow one starts first and ends last
        let slow = Task { try await dispatcher.dispatch(.get("/slow")) }
        await clock.waitForSleepers(1)
        let fast = Task { try await dispatcher.dispatch(.get("/fast")) }
        await clock.waitForSleepers(2)
        clock.advance(by: .milliseconds(10))
        _ = try await fast.value
        clock.advance(by: .milliseconds(90))
        _ = try await slow.value

        // Then each response line carries its request's id and exact duration
        #expect(
            sink.texts == [
                "[errand #1] → GET /slow",
                "[errand #2] → GET /fast",
                "[errand #2] ← 200 GET /fast 10.0 ms 5 B",
                "[errand #1] ← 200 GET /slow 100.0 ms 4 B",
            ])
        #expect(sink.captured.map(\.requestID) == [1, 2, 2, 1])
        #expect(sink.captured.map(\.event) == [.request, .request, .response, .response])
    }

    @Test func levelNoneLeavesTheDispatcherAsItIs() async throws {
        // Given logging turned off
        let inner = InMemoryDispatcher()
        inner.stub(.get, "/x", response: .status(200))
        let sink = CapturingSink()

        // When it is put in the stack and a request is sent
        let dispatcher = inner.logging(to: sink, level: .none)
        _ = try await dispatcher.dispatch(.get("/x"))

        // Then the stack is the base dispatcher itself and nothing is logged
        #expect(dispatcher as? InMemoryDispatcher === inner)
        #expect(sink.captured.isEmpty)
    }

    @Test func basicLevelWritesOneLinePairWithDurationAndBytes() async throws {
        // Given a response that takes 12.3 ms
        let clock = ManualClock()
        let inner = InMemoryDispatcher(latency: .microseconds(12_300), clock: clock)
        inner.stub(.post, "/users", response: .text("hello", headers: ["X-Trace": "t1"]))
        let sink = CapturingSink()
        let dispatcher = inner.logging(to: sink, level: .basic, clock: clock)

        // When a request with a body is sent
        let task = Task {
            try await dispatcher.dispatch(.post("/users").query("page", "2").body(.text("abc")))
        }
        await clock.waitForSleepers(1)
        clock.advance(by: .microseconds(12_300))
        _ = try await task.value

        // Then there is one line for the request and one for the response, without headers
        #expect(
            sink.texts == [
                "[errand #1] → POST /users?page=2 3 B", "[errand #1] ← 200 POST /users?page=2 12.3 ms 5 B",
            ])
        #expect(sink.captured.allSatisfy { $0.level == .basic })
    }

    @Test func headersLevelAddsRedactedHeadersButNoBody() async throws {
        // Given a response with headers
        let inner = InMemoryDispatcher()
        inner.stub(.get, "/x", response: .text("body text", headers: ["X-Trace": "t1"]))
        let sink = CapturingSink()
        let dispatcher = inner.logging(to: sink, level: .headers)

        // When a request with headers is sent
        _ = try await dispatcher.dispatch(
            .get("/x").header("Accept", "text/plain").header("X-API-Key", "k-123"))

        // Then both sides' headers follow their lines, secrets redacted, and no body
        #expect(sink.texts[0] == "[errand #1] → GET /x\n  Accept: text/plain\n  X-API-Key: <redacted>")
        #expect(sink.texts[1].contains("\n  X-Trace: t1"))
        #expect(!sink.texts[1].contains("body text"))
    }

    @Test func bodyLevelTruncatesAtTheConfiguredSize() async throws {
        // Given a 26-byte body and a limit of 10
        let inner = InMemoryDispatcher()
        inner.stub(.get, "/x", response: .text("abcdefghijklmnopqrstuvwxyz"))
        let sink = CapturingSink()
        let dispatcher = inner.logging(to: sink, level: .body, bodyLimit: 10)

        // When it is logged
        _ = try await dispatcher.dispatch(.get("/x"))

        // Then only the first 10 bytes are shown, with how many were left out
        #expect(sink.texts[1].hasSuffix("\n  abcdefghij… (16 B more)"))
    }

    @Test func anUntypedBodyThatReadsAsJSONIsRedactedAsJSON() async throws {
        // Given an answer without a content type whose body is JSON holding a token
        let inner = InMemoryDispatcher()
        inner.stub(.get, "/me", response: .status(200, body: Data(#"{"token":"t-1","id":7}"#.utf8)))
        let sink = CapturingSink()
        let dispatcher = inner.logging(to: sink, level: .body)

        // When it is logged
        _ = try await dispatcher.dispatch(.get("/me"))

        // Then the token is hidden and the rest shown
        #expect(!sink.texts.joined().contains("t-1"))
        #expect(sink.texts[1].contains(#""id":7"#))
    }

    @Test func binaryBodiesAreShownAsSizeAndType() async throws {
        // Given a binary response
        let inner = InMemoryDispatcher()
        inner.stub(.get, "/logo", response: .data(Data([0x89, 0x50, 0x00, 0xFF]), contentType: "image/png"))
        let sink = CapturingSink()
        let dispatcher = inner.logging(to: sink, level: .body)

        // When it is logged
        _ = try await dispatcher.dispatch(.get("/logo"))

        // Then its bytes are not written, only its size and type
        #expect(sink.texts[1].hasSuffix("\n  <binary 4 B image/png>"))
    }

    @Test func errorsAreLoggedWithTheirCode() async throws {
        // Given a request that times out
        let inner = InMemoryDispatcher()
        inner.stub(.get, "/x", response: .failure(.timedOut))
        let sink = CapturingSink()
        let dispatcher = inner.logging(to: sink, clock: ManualClock())

        // When it is sent
        await #expect(throws: NetworkError.self) { try await dispatcher.dispatch(.get("/x")) }

        // Then the failure line carries the code
        #expect(sink.texts == ["[errand #1] → GET /x", "[errand #1] ← timedOut GET /x 0.0 ms"])
        #expect(sink.captured.last?.event == .failure)
    }

    @Test func anAnswerGivenDuringDispatchIsLoggedAndDeliveredBeforeDispatchReturns() async throws {
        // Given logging at body level over a stub that answers at once, and one that fails at once
        let inner = InMemoryDispatcher()
        inner.stub(.get, "/x", response: .text("ok"))
        inner.stub(.get, "/down", response: .failure(.transport))
        let sink = CapturingSink()
        let dispatcher = inner.logging(to: sink, level: .body, clock: ManualClock())
        let returned = Locked(false)
        let order = Locked<[String]>([])

        // When each is dispatched on callbacks
        for path in ["/x", "/down"] {
            returned.withLock { $0 = false }
            dispatcher.dispatch(
                request: .get(path),
                onSuccess: { _ in
                    order.withLock { $0.append("\(path) answered, returned: \(returned.withLock { $0 })") }
                },
                onError: { _ in
                    order.withLock { $0.append("\(path) failed, returned: \(returned.withLock { $0 })") }
                })
            returned.withLock { $0 = true }
        }

        // Then both lines of each were written and its outcome handed on while dispatch ran: the
        // policy started no task of its own
        #expect(order.withLock { $0 } == ["/x answered, returned: false", "/down failed, returned: false"])
        #expect(sink.captured.map(\.event) == [.request, .response, .request, .failure])
        #expect(sink.captured.map(\.requestID) == [1, 1, 2, 2])
    }
}
