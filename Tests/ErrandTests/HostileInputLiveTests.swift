import Errand
import ErrandTestSupport
import Foundation
import Testing

/// Hostile and awkward input sent to httpbin: what is refused never leaves, what is sent arrives as written.
@Suite(.enabled(if: LiveServer.httpbinAvailable, LiveServer.skipReason))
struct HostileInputLiveTests {
    /// What httpbin's `/anything` says it received.
    struct Received: Decodable, Sendable {
        let method: String
        let url: String
        let args: [String: String]
        let headers: [String: String]
    }

    let server: URL
    let dispatcher: URLSessionDispatcher

    init() throws {
        server = try LiveServer.require(LiveServer.httpbin, "ERRAND_HTTPBIN_URL")
        dispatcher = URLSessionDispatcher(baseURL: server)
    }

    private func send(_ request: RequestData, through dispatcher: URLSessionDispatcher? = nil) async throws
        -> Received
    {
        try await Request<Received>(request).execute(dispatcher: dispatcher ?? self.dispatcher)
    }

    private func refusal(_ request: RequestData) async throws -> NetworkError {
        let probe = CallbackProbe<NetworkResponse>()
        dispatcher.dispatch(request: request, onSuccess: probe.onSuccess, onError: probe.onError)
        return try await probe.failure()
    }

    @Test func aHeaderNameWithCRLFIsRefusedAndInjectsNothing() async throws {
        // Given a header name that would write a header of its own
        let request = RequestData.get("/anything").header("X-A: 1\r\nInjected", "x")
        // When it is sent, Then it is refused before it leaves
        let error = try await refusal(request)
        #expect(error.code == .invalidRequest)
        #expect(error.message.contains("header name"))
    }

    @Test func aMethodWithCRLFCannotWriteTheRequestLine() async throws {
        // Given a method that would write a request line of its own
        let request = RequestData(
            path: "/anything", method: "GET /anything/smuggled HTTP/1.1\r\nX-Smuggled: 1\r\nX-Pad:")
        // When it is sent, Then it is refused before it leaves
        let error = try await refusal(request)
        #expect(error.code == .invalidRequest)
        #expect(error.message.contains("method"))
        #expect(!error.message.contains("\r\n"))
    }

    @Test(arguments: [("X-A", "1\r\nInjected: yes"), ("", "x"), ("X-A", "a\0b")])
    func aHeaderThatWouldBeDroppedIsRefusedInstead(name: String, value: String) async throws {
        let error = try await refusal(RequestData.get("/headers").header(name, value))
        #expect(error.code == .invalidRequest)
    }

    @Test func validHeadersArriveAsWritten() async throws {
        // Given header values with a tab, quotes and punctuation, and a name with every token character
        let request = RequestData(path: "/anything", method: "PATCH")
            .header("X-Token!#$%&'*+.^`|~", "t").header("X-Tab", "a\tb").header(
                "X-Punct", "\"q\" ~!#$%&'()*+,/:;<=>?@[\\]^_`{|}")
        // When it is sent
        let received = try await send(request)
        // Then httpbin received them unchanged
        #expect(received.method == "PATCH")
        #expect(received.headers["X-Token!#$%&'*+.^`|~"] == "t")
        #expect(received.headers["X-Tab"] == "a\tb")
        #expect(received.headers["X-Punct"] == "\"q\" ~!#$%&'()*+,/:;<=>?@[\\]^_`{|}")
    }

    @Test func aFragmentDoesNotSwallowTheQuery() async throws {
        // Given a path with a fragment and a query item
        let received = try await send(.get("/anything/a#frag").query("k", "v"))
        // Then the query item arrived and the fragment was not sent
        #expect(received.args == ["k": "v"])
        #expect(received.url.hasSuffix("/anything/a?k=v"))
    }

    @Test(arguments: RequestURLTests.mustEscape)
    func aRawCharacterArrivesAsTheSameCharacterEscapedOnce(raw: String, escaped: String) async throws {
        // Given the same path written with a raw character and with its escape, beside existing escapes
        let rawPath = "/anything/p\(raw)%2Fq?x=\(raw)%26&p=%2F"
        let escapedPath = "/anything/p\(escaped)%2Fq?x=\(escaped)%26&p=%2F"
        // When both are sent, relative and absolute
        let relative = try await send(.get(rawPath))
        let absolute = try await send(.get(server.absoluteString + rawPath))
        let reference = try await send(.get(escapedPath))
        // Then httpbin decoded each escape once, and saw the same URL for all three
        #expect(relative.args == ["x": raw + "&", "p": "/"])
        #expect(absolute.args == ["x": raw + "&", "p": "/"])
        #expect(relative.url == reference.url)
        #expect(absolute.url == reference.url)
    }

    @Test func aBrowserURLIsSentAsWritten() async throws {
        let received = try await send(.get(server.absoluteString + "/anything/ping?p=%2F&x=[1]&y=100%"))
        #expect(received.args == ["p": "/", "x": "[1]", "y": "100%"])
    }

    @Test(arguments: [TimeInterval.infinity, 1.8e10, 1e18, Double.greatestFiniteMagnitude])
    func aRequestWithoutADeadlineIsSent(timeout: TimeInterval) async throws {
        // Given a timeout of .infinity or one too large for the clock
        // When the request is sent, Then it succeeds instead of stopping the process
        let received = try await send(.get("/anything").query("t", "1").timeout(timeout))
        #expect(received.args == ["t": "1"])
    }

    @Test func aDispatcherWithoutADefaultDeadlineSends() async throws {
        let unbounded = URLSessionDispatcher(baseURL: server, timeout: .infinity)
        let received = try await send(.get("/anything").query("t", "2"), through: unbounded)
        #expect(received.args == ["t": "2"])
    }

    @Test func theURLARequestReportsIsTheOneTheServerReceived() async throws {
        // Given paths with dot segments, which curl resolves before sending
        for path in ["/anything/a/../b/./c", "/anything/x/y/..", "/nothing/../anything/d"] {
            // When one is sent
            let request = RequestData.get(path)
            let received = try await send(request)
            // Then the URL built for it is what httpbin saw
            #expect(try request.url(relativeTo: server).absoluteString == received.url)
        }
    }
}
