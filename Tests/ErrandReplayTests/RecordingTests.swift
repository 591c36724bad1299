import Errand
import ErrandReplay
import Foundation
import Testing

/// `Recording` turns requests, responses and failures into HAR entries and back.
@Suite struct RecordingTests {
    @Test func recordsARequestWithItsURLHeadersCookiesAndFormBody() throws {
        // Given a form POST with a cookie, relative to a base URL
        let request = RequestData.post("/login").query("next", "/home page")
            .header("Cookie", "session=abc; theme=dark")
            .body(.form(["user": "ada", "note": "a+b c"]))
        // When converted
        let har = try Recording.harRequest(for: request, baseURL: testBaseURL)
        // Then it is the absolute request with its headers, cookies, body and form fields
        #expect(har.method == "POST")
        #expect(har.url == "https://api.example.com/login?next=%2Fhome%20page")
        #expect(har.queryItems == [HAR.QueryItem(name: "next", value: "/home page")])
        #expect(har.value(forHeader: "Content-Type") == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(
            har.cookies == [
                HAR.Cookie(name: "session", value: "abc"), HAR.Cookie(name: "theme", value: "dark"),
            ])
        #expect(har.postData?.text == "user=ada&note=a%2Bb%20c")
        #expect(
            har.postData?.params == [
                HAR.Param(name: "user", value: "ada"), HAR.Param(name: "note", value: "a+b c"),
            ])
        #expect(har.bodySize == 23)
    }

    @Test func refusesARelativePathWithoutABaseURL() {
        #expect(throws: NetworkError.self) { try Recording.harRequest(for: .get("/users"), baseURL: nil) }
    }

    @Test func recordsAResponseAndReplaysItIdentically() throws {
        // Given a response with a cookie and a binary body
        let body = Data((0..<256).map { UInt8($0) })
        let response = NetworkResponse(
            statusCode: 201,
            headers: ["Content-Type": "application/octet-stream", "Set-Cookie": "k=v; Path=/; HttpOnly"],
            body: body)
        // When recorded, written, read back and replayed
        let recording = try Recording(
            request: .put("/blob").body(.raw(body, contentType: "application/octet-stream")),
            baseURL: testBaseURL,
            response: response, startedDateTime: Date(timeIntervalSince1970: 0), duration: .milliseconds(42))
        let har = HAR(creator: HAR.Creator(name: "test", version: "1"), entries: [recording.entry])
        let reread = try Recording(entry: HAR(data: har.encoded(redaction: .none)).entries[0])
        let replayed = try reread.replay(for: .put("/blob")).get()
        // Then the status, headers and body are the recorded ones
        #expect(recording.entry.time == 42)
        #expect(recording.entry.response.statusText == "Created")
        #expect(recording.entry.response.cookies.first?.httpOnly == true)
        #expect(replayed.statusCode == 201)
        #expect(replayed.headers == response.headers)
        #expect(replayed.body == body)
        #expect(replayed.url?.absoluteString == "https://api.example.com/blob")
        #expect(reread.entry.request.body == body)
    }

    @Test func storesADecompressedBodyWithCorrectedHeaders() throws {
        // Given a response as URLSession delivers a gzip answer: decoded body, wire headers
        let body = Data(#"{"gzipped": true}"#.utf8)
        let response = NetworkResponse(
            statusCode: 200,
            headers: ["Content-Encoding": "gzip", "Content-Length": "7", "Content-Type": "application/json"],
            body: body)
        // When recorded
        let recording = try Recording(request: .get("/gzip"), baseURL: testBaseURL, response: response)
        // Then the entry describes the decoded body
        #expect(recording.entry.response.value(forHeader: "Content-Encoding") == nil)
        #expect(recording.entry.response.value(forHeader: "Content-Length") == "17")
        #expect(recording.entry.response.content.text == #"{"gzipped": true}"#)
    }

    @Test(arguments: [NetworkError.Code.transport, .timedOut])
    func recordsAFailureAsStatusZeroAndReplaysTheSameCode(code: NetworkError.Code) throws {
        // Given a failure of the network
        let failure = NetworkError(code: code, message: "Connection refused.")
        // When recorded, written and read back
        let recording = try Recording(
            request: .get("/down"), baseURL: testBaseURL, failure: failure, duration: .milliseconds(3))
        let har = HAR(creator: HAR.Creator(name: "test", version: "1"), entries: [recording.entry])
        let reread = try Recording(entry: HAR(data: har.encoded()).entries[0])
        // Then it is status 0 with the kind, and replays as the same code
        #expect(reread.entry.response.status == 0)
        let reason =
            code == .timedOut ? "No complete response within the request's deadline." : "Connection refused."
        #expect(reread.entry.response.error == "\(code.rawValue): \(reason)")
        #expect(reread.isFailure)
        let error = try #require(reread.replay(for: .get("/down")).failure)
        #expect(error.code == code)
        #expect(error.message.contains(reason))
    }

    @Test func recordsTheURLErrorOfAFailureRatherThanItsChangingMessage() throws {
        // Given a refused connection as URLSession reports it, with a timing in its message
        let failure = NetworkError(
            code: .transport, message: "Failed to connect after 11 ms.",
            underlyingError: URLError(.cannotConnectToHost))
        // When recorded, Then the text is the same on every run
        let recording = try Recording(request: .get("/down"), baseURL: testBaseURL, failure: failure)
        #expect(
            recording.entry.response.error
                == "transport: The request failed with URLError -1004 (cannotConnectToHost).")
    }

    @Test func replaysOtherToolsFailuresWithTheNearestCode() throws {
        // Given the failures Chrome and a timeout exporter write
        let chrome = try HAR(contentsOf: Fixtures.url("chrome-http2.har")).entries[2]
        let timeout = try HAR(contentsOf: Fixtures.url("failed-request.har")).entries[0]
        // Then a refused connection is transport and a timeout is timedOut
        #expect(Recording(entry: chrome).replay(for: .get("/health")).failure?.code == .transport)
        #expect(Recording(entry: timeout).replay(for: .get("/timeout")).failure?.code == .timedOut)
    }

    @Test func recordsOnlyWhatTheNetworkDid() {
        #expect(Recording.records(NetworkError(code: .transport, message: "")))
        #expect(Recording.records(NetworkError(code: .timedOut, message: "")))
        #expect(!Recording.records(NetworkError(code: .cancelled, message: "")))
        #expect(!Recording.records(NetworkError(code: .invalidRequest, message: "")))
    }
}

extension Result {
    /// The error of a failure, or `nil`.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
