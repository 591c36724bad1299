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
