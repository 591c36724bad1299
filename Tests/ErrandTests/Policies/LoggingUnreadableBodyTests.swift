import Errand
import ErrandPolicies
import Foundation
import Testing

/// A request body that cannot be read to redact is withheld, and so is every echo of it.
@Suite struct LoggingUnreadableBodyTests {
    /// A JSON body cut short after its secret.
    static let cutShort = Data(#"{"password": "S3cretPw9", "#.utf8)

    /// An answer that echoes `body` as httpbin's `/anything` does, in a JSON string, in a
    /// header, and (for a form) as a field of its own.
    static func echo(of body: Data, status: Int = 200) -> InMemoryDispatcher.Response {
        let text = String(decoding: body, as: UTF8.self)
        let json = try? JSONSerialization.data(withJSONObject: ["data": text, "url": "http://h/anything"])
        return .status(
            status, headers: ["Content-Type": "application/json", "X-Echo": text.filter { !$0.isNewline }],
            body: json ?? Data())
    }

    @Test(arguments: [LogLevel.headers, .body])
    func aSecretOfABodyCutShortIsHiddenInItsEcho(level: LogLevel) async throws {
        // Given a server that echoes what it is sent
        let inner = InMemoryDispatcher()
        inner.stub(.post, "/anything", response: Self.echo(of: Self.cutShort))
        let sink = CapturingSink()
        let dispatcher = inner.logging(to: sink, level: level)

        // When a JSON body cut short after its password is sent
        _ = try await dispatcher.dispatch(
            .post("/anything").body(.raw(Self.cutShort, contentType: "application/json")))

        // Then the request line withholds the body, and the answer shows the echo without the password
        let all = sink.texts.joined(separator: "\n")
        #expect(!all.contains("S3cretPw9"), "\(all)")
        #expect(sink.texts[1].contains("X-Echo: {\"password\": \"<redacted>\", "))
        if level == .body {
            #expect(sink.texts[0].contains("not shown: secrets could not be redacted"))
            #expect(sink.texts[1].contains(#"\"password\": \"<redacted>\""#))
        }
    }

    @Test func theLastSecretOfABodyIsHiddenAsFarAsItWasSent() async throws {
        // Given a body cut inside a nested secret value, and an echo of it
        let body = Data(
            #"{"user": "ann", "credentials": {"token": "T0kenValue1"}, "password": {"old": "0ldPassw0rd", "new": "N3wPass"#
                .utf8)
        let inner = InMemoryDispatcher()
        inner.stub(.post, "/anything", response: Self.echo(of: body))
        let sink = CapturingSink()
        let dispatcher = inner.logging(to: sink, level: .body)

        // When it is sent
        _ = try await dispatcher.dispatch(
            .post("/anything").body(.raw(body, contentType: "application/json")))

        // Then neither the whole secret nor the part cut short shows, and the rest does
        let all = sink.texts.joined(separator: "\n")
        for secret in ["T0kenValue1", "0ldPassw0rd", "N3wPass"] { #expect(!all.contains(secret), "\(all)") }
        #expect(all.contains(#"\"user\": \"ann\""#))
    }

    @Test(arguments: [LogLevel.headers, .body])
    func anAnswerIsWithheldWhenTheRequestBodyCannotBeReadToItsSecrets(level: LogLevel) async throws {
        // Given a JSON body broken before its secret (no colon), which no read can trust
        let body = Data(#"{"note" "x", "password": "S3cretPw9"}"#.utf8)
        let inner = InMemoryDispatcher()
        inner.stub(.post, "/anything", response: Self.echo(of: body, status: 422))
        let sink = CapturingSink()
        let dispatcher = inner.logging(to: sink, level: level)

        // When it is sent
        _ = try await dispatcher.dispatch(
            .post("/anything").body(.raw(body, contentType: "application/json")))

        // Then the answer's headers and body are withheld, with why
        #expect(!sink.texts[1].contains("S3cretPw9"))
        let withheld = level == .body ? "headers and 85 B body" : "headers"
        #expect(
            sink.texts[1].hasSuffix(
                "\n  <\(withheld) not shown: they may repeat secrets of the request's body, "
                    + "which could not be read to find them>"))
    }

    @Test func anUntypedBodyCutShortIsWithheldLikeATypedOne() async throws {
        // Given a body without a content type that opens like JSON, cut short after a secret
        let inner = InMemoryDispatcher()
        inner.stub(.post, "/anything", response: .status(204))
        let sink = CapturingSink()
        let dispatcher = inner.logging(to: sink, level: .body)

        // When it is sent
        _ = try await dispatcher.dispatch(.post("/anything").body(.raw(Self.cutShort, contentType: "")))

        // Then it is not shown, as a typed one is not
        #expect(!sink.texts.joined().contains("S3cretPw9"))
        #expect(sink.texts[0].contains("not shown: secrets could not be redacted"))
    }

    @Test func anErrorDescriptionHidesTheEchoOfABodyCutShort() async throws {
        // Given a server that refuses a body cut short, quoting it
        let inner = InMemoryDispatcher()
        inner.stub(.post, "/anything", response: Self.echo(of: Self.cutShort, status: 400))
        let request = RequestData.post("/anything").body(.raw(Self.cutShort, contentType: "application/json"))

        // When the request is executed and fails on its status
        let error = try await #require(throws: NetworkError.self) {
            _ = try await Request<EmptyResponse>(request).execute(dispatcher: inner)
        }

        // Then its description quotes the answer without the password
        #expect(error.code == .unacceptableStatus)
        #expect(!error.description.contains("S3cretPw9"), "\(error.description)")
        #expect(error.description.contains("<redacted>"))
    }
}

/// An untyped body behind a byte order mark is read as JSON, as JSON readers read it.
@Suite struct LoggingMarkedBodyTests {
    @Test func anUntypedBodyCutShortBehindAByteOrderMarkIsWithheld() async throws {
        // Given a server that echoes what it is sent
        let body = Data("\u{FEFF}{\"password\": \"S3cretPw9\", ".utf8)
        let inner = InMemoryDispatcher()
        inner.stub(.post, "/anything", response: LoggingUnreadableBodyTests.echo(of: body))
        let sink = CapturingSink()
        let dispatcher = inner.logging(to: sink, level: .body)

        // When the body is sent without a content type
        _ = try await dispatcher.dispatch(.post("/anything").body(.raw(body, contentType: "")))

        // Then no line shows the password
        let all = sink.texts.joined(separator: "\n")
        #expect(!all.contains("S3cretPw9"), "\(all)")
    }
}
