import Errand
import ErrandTestSupport
import Foundation
import Testing

/// `RequestData.validate()`: what is refused before anything is sent, by every dispatcher.
@Suite struct RequestValidationTests {
    /// Requests that must never be sent, with a word their error message must hold.
    static let hostile: [(request: RequestData, names: String)] = [
        (RequestData.get("/anything").header("X-A: 1\r\nInjected", "x"), "header name"),
        (RequestData.get("/headers").header("X-A", "1\r\nInjected: yes"), "header \"X-A\""),
        (RequestData.get("/headers").header("X-A", "1\nInjected: yes"), "header \"X-A\""),
        (RequestData.get("/headers").header("X-A", "a\0b"), "header \"X-A\""),
        (RequestData.get("/headers").header("X-A", "a\u{7F}b"), "header \"X-A\""),
        (RequestData.get("/headers").header("X-A", "a\u{1B}b"), "header \"X-A\""),
        (RequestData.get("/headers").header("", "x"), "header name"),
        (RequestData.get("/headers").header("X A", "x"), "header name"),
        (RequestData.get("/headers").header("X-A:", "x"), "header name"),
        (RequestData.get("/headers").header("Zoë", "x"), "header name"),
        (
            RequestData(
                path: "/anything", method: "GET /anything/smuggled HTTP/1.1\r\nX-Smuggled: 1\r\nX-Pad:"),
            "method"
        ),
        (RequestData(path: "/anything", method: "GET "), "method"),
        (RequestData(path: "/anything", method: ""), "method"),
        (
            RequestData.post("/anything").body(
                .raw(Data("x".utf8), contentType: "text/plain\r\nX-Injected: 1")), "content type"
        ),
        (
            RequestData.post("/anything").body(
                .multipart([.field("a", "b")], boundary: "b\r\nX-Injected: 1")), "content type"
        ),
        (
            RequestData.post("/anything").body(
                .multipart([
                    .file("f", fileName: "f.txt", contentType: "text/plain\r\nX-Part: 1", data: Data())
                ])),
            "content type of part \"f\""
        ),
        (RequestData.get("/anything").timeout(.nan), "timeout"),
        (RequestData.get("/anything").timeout(-1), "timeout"),
        (RequestData.get("/anything").timeout(0), "timeout"),
        (RequestData.get("/anything").timeout(-.infinity), "timeout"),
    ]

    @Test(arguments: hostile)
    func validateRefusesIt(request: RequestData, names: String) {
        // Given a request with a bad method, header or timeout
        // When it is validated, Then it fails with invalidRequest naming the field
        do {
            try request.validate()
            Issue.record("\(request.method) was accepted")
        } catch let error as NetworkError {
            #expect(error.code == .invalidRequest)
            #expect(error.message.contains(names), "\(error.message)")
            // And the message never holds a raw control character
            #expect(!error.message.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        } catch {
            Issue.record("unexpected error: \(error)")
        }
    }

    @Test(arguments: hostile)
    func inMemoryDispatcherRefusesIt(request: RequestData, names: String) async throws {
        // Given a dispatcher with a stub for every path
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(request.method, request.path, response: .status(200))
        let probe = CallbackProbe<NetworkResponse>()
        // When the request is dispatched
        dispatcher.dispatch(request: request, onSuccess: probe.onSuccess, onError: probe.onError)
        // Then it is refused, and not recorded as received
        #expect(try await probe.failure().code == .invalidRequest)
        #expect(dispatcher.receivedRequests.isEmpty)
    }

    @Test func theMessageShowsTheBadCharacterEscaped() throws {
        let request = RequestData.get("/x").header("X-A: 1\r\nInjected", "x")
        let error = try #require(throws: NetworkError.self) { try request.validate() }
        #expect(error.message.contains(#""X-A: 1\r\nInjected""#))
        #expect(error.message.contains(#"holds ":""#))
    }

    @Test func aBadHeaderValueIsNeverShownSinceItMayBeACredential() throws {
        let request = RequestData.get("/x").header("Authorization", "Bearer s3cret\r\nX-Injected: 1")
        let error = try #require(throws: NetworkError.self) { try request.validate() }
        #expect(error.message.contains(#""Authorization""#))
        #expect(error.message.contains(#"CR (\r) at byte 13"#))
        #expect(!error.message.contains("s3cret"))
    }

    @Test func theOffsetOfABadValueByteCountsBytesNotCharacters() throws {
        // "Zoë " is five bytes, "東" three: the NUL is byte 8, the DEL after it byte 9.
        let request = RequestData.get("/x").header("X-Name", "Zoë 東\u{0}\u{7F}")
        let error = try #require(throws: NetworkError.self) { try request.validate() }
        #expect(error.message.contains(#"NUL (\0) at byte 8"#), "\(error.message)")
        let last = RequestData.get("/x").header("X-Name", "ok\u{7F}")
        let lastError = try #require(throws: NetworkError.self) { try last.validate() }
        #expect(lastError.message.contains(#"\u{7F} at byte 2"#), "\(lastError.message)")
    }

    @Test(arguments: [
        RequestData.get("/x").header("X-A", "tab\there, Zoë 東京, \"quoted\" ~!"),
        RequestData.get("/x").header("X-Empty", ""),
        RequestData(path: "/x", method: "PROPFIND").header("x_custom.name+1", "v"),
        RequestData.get("/x").timeout(.infinity),
        RequestData.get("/x").timeout(1e300),
        RequestData.get("/x").timeout(0.001),
    ])
    func validateAcceptsValidHTTP(request: RequestData) {
        #expect(throws: Never.self) { try request.validate() }
    }

    @Test func aDispatcherWithAnInvalidDefaultTimeoutRefusesEachRequestAndNamesIt() async throws {
        // Given dispatchers made with NaN, zero and negative default timeouts
        for timeout in [TimeInterval.nan, 0, -5] {
            let dispatcher = URLSessionDispatcher(
                baseURL: URL(string: "http://127.0.0.1:9"), timeout: timeout)
            let probe = CallbackProbe<NetworkResponse>()
            // When a request without its own timeout is dispatched
            dispatcher.dispatch(request: .get("/x"), onSuccess: probe.onSuccess, onError: probe.onError)
            // Then it is refused at once, naming the dispatcher's timeout
            let error = try await probe.failure()
            #expect(error.code == .invalidRequest)
            #expect(error.message.contains("dispatcher's default timeout"))
        }
    }
}
