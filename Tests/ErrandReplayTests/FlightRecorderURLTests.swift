import Errand
import ErrandTestSupport
import Foundation
import Testing

@testable import ErrandReplay

/// The absolute URLs a flight recorder resolves once per query-less path.
@Suite struct FlightRecorderURLTests {
    @Test func aQuerylessPathIsResolvedOnceAndKeptAsTheTransportSendsIt() throws {
        let base = try #require(URL(string: "https://api.example.com/v1/"))
        let urls = ResolvedURLs(baseURL: base)

        let first = urls.url(of: .get("users/7"))
        let again = urls.url(of: .get("users/7"))

        let expected = try RequestData.get("users/7").resolvedURL(relativeTo: base).absoluteString
        #expect(first == expected)
        #expect(again == expected)
        #expect(urls.url(of: .get("https://other.example/x")) == "https://other.example/x")
    }

    @Test func nothingWithAQueryIsKept() throws {
        let urls = ResolvedURLs(baseURL: URL(string: "https://api.example.com"))
        let withBaseQuery = ResolvedURLs(baseURL: URL(string: "https://api.example.com/?api_key=secret-key"))

        #expect(urls.url(of: .get("/users?access_token=secret")) == nil)
        #expect(urls.url(of: RequestData.get("/users").query("access_token", "secret")) == nil)
        #expect(urls.url(of: .get("/users#top")) == nil)
        #expect(withBaseQuery.url(of: .get("/users")) == nil)
    }

    @Test func aRelativePathWithoutABaseURLIsLeftToTheResponseOrigin() {
        #expect(ResolvedURLs(baseURL: nil).url(of: .get("/users")) == nil)
    }

    @Test func aTransportFailureIsKeptWithTheAbsoluteURLItsCauseNames() async throws {
        // Given a recorder without a base URL, over a transport whose port refuses connections
        let recorder = FlightRecorder(FlightRecorder.Configuration())
        let transport = URLSessionDispatcher(baseURL: URL(string: "http://127.0.0.1:1"))
        let dispatcher = transport.flightRecording(into: recorder)

        // When a request fails before any answer
        await #expect(throws: NetworkError.self) {
            try await Request<String>(RequestData.get("/fail").query("token", "secret-value"))
                .execute(dispatcher: dispatcher)
        }

        // Then its entry has an absolute URL, as HAR 1.2 asks, with the secret still hidden
        let entry = try #require(recorder.har().log.entries.first)
        #expect(entry.response.status == 0)
        #expect(entry.request.url == "http://127.0.0.1:1/fail?token=%3Credacted%3E")
    }

    @Test func theRecordedEntryIsTheSameWithTheURLKnownOrResolved() async throws {
        let server = InMemoryDispatcher()
        server.stub(.get, "/users", response: .text("[]"))
        server.stub(.get, "/search", response: .text("[]"))
        let recorder = FlightRecorder(
            FlightRecorder.Configuration(baseURL: URL(string: "https://api.example.com")))
        let dispatcher = server.flightRecording(into: recorder)

        _ = try await Request<String>(.get("/users")).execute(dispatcher: dispatcher)
        _ = try await Request<String>(.get("/users")).execute(dispatcher: dispatcher)
        _ = try await Request<String>(RequestData.get("/search").query("access_token", "secret-value"))
            .execute(dispatcher: dispatcher)

        let requests = recorder.har().log.entries.map(\.request)
        #expect(
            requests.map(\.url).prefix(2) == [
                "https://api.example.com/users", "https://api.example.com/users",
            ])
        #expect(requests.prefix(2).allSatisfy { $0.queryString.isEmpty })
        let search = try #require(requests.last)
        #expect(!search.url.contains("secret-value"))
        #expect(search.queryString.map(\.name) == ["access_token"])
        #expect(!search.queryString.contains { $0.value.contains("secret-value") })
    }
}
