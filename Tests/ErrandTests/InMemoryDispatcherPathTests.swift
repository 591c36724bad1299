import Errand
import ErrandTestSupport
import Foundation
import Testing

/// `InMemoryDispatcher` reads paths as `URLSessionDispatcher` does, and never stops on one.
@Suite struct InMemoryDispatcherPathTests {
    /// Paths whose inline query once stopped the process in stub matching.
    static let awkward = [
        "/search?q=a b", "/search?q=café", "/p?p=100%", "/p?p=%zz", "/s?q=a#b", "/s?q=[1]", "/s?q=\"x\"",
        "/s?q=<>{}|^`\\", "/a b/c?d=e f", "https://api.example.com/s?q=a b&r=日本",
    ]

    @Test(arguments: awkward)
    func aRequestWithAnAwkwardPathIsAnsweredByItsStub(path: String) async throws {
        // Given a stub written with the same path
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, path, response: .text("ok"))
        // When a request with that path is sent
        let text = try await Request<String>(.get(path)).execute(dispatcher: dispatcher)
        // Then the stub answers it
        #expect(text == "ok")
    }

    @Test(arguments: awkward)
    func aRequestWithAnAwkwardPathFailsAsUnmatchedWithoutAStub(path: String) async throws {
        // Given a dispatcher whose only stub is elsewhere
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/elsewhere?q=1 2", response: .text("no"))
        let probe = CallbackProbe<NetworkResponse>()
        // When the request is dispatched
        dispatcher.dispatch(request: .get(path), onSuccess: probe.onSuccess, onError: probe.onError)
        // Then it fails as unmatched instead of stopping the process
        #expect(try await probe.failure().code == .unmatchedRequest)
    }

    @Test func aPathMeansTheSameWrittenRawOrEscaped() async throws {
        // Given a stub for a query written raw
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/search?q=a b&city=Zürich", response: .text("ok"))
        // When the same request is written escaped, or with query items
        let escaped = try await Request<String>(.get("/search?q=a%20b&city=Z%C3%BCrich"))
            .execute(dispatcher: dispatcher)
        let items = try await Request<String>(.get("/search").query("q", "a b").query("city", "Zürich"))
            .execute(dispatcher: dispatcher)
        // Then the stub answers both
        #expect(escaped == "ok")
        #expect(items == "ok")
    }

    @Test func aPercentInAQueryValueMatchesItsQueryItem() async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/p?p=100%", response: .text("ok"))
        #expect(
            try await Request<String>(.get("/p").query("p", "100%")).execute(dispatcher: dispatcher) == "ok")
    }

    @Test func aFragmentIsIgnoredAsOnTheWire() async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/anything/a?k=v", response: .text("ok"))
        let text = try await Request<String>(.get("/anything/a#frag").query("k", "v")).execute(
            dispatcher: dispatcher)
        #expect(text == "ok")
    }

    @Test(arguments: ["http://exa mple.com/x", "http:///x"])
    func aPathThatCannotBeReadIsAnInvalidRequest(path: String) async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/x", response: .text("ok"))
        let probe = CallbackProbe<NetworkResponse>()
        dispatcher.dispatch(request: .get(path), onSuccess: probe.onSuccess, onError: probe.onError)
        let error = try await probe.failure()
        #expect(error.code == .invalidRequest)
        #expect(error.message.contains("host"))
    }

    @Test func aStubWhosePathCannotBeReadMatchesNothingAndSaysSo() async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "http://exa mple.com/x", response: .text("ok"))
        let probe = CallbackProbe<NetworkResponse>()
        dispatcher.dispatch(request: .get("/x"), onSuccess: probe.onSuccess, onError: probe.onError)
        let error = try await probe.failure()
        #expect(error.code == .unmatchedRequest)
        #expect(error.message.contains("cannot be read"))
    }

    @Test func dotSegmentsAreResolvedAsOnTheWire() async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/users/2", response: .text("ok"))
        for path in ["/users/1/../2", "/users/./2", "https://api.example.com/x/../users/2"] {
            #expect(try await Request<String>(.get(path)).execute(dispatcher: dispatcher) == "ok")
        }
    }
}

/// An unreadable path's error never quotes the URL's credentials.
@Suite struct InMemoryDispatcherUnreadablePathTests {
    @Test(arguments: ["https://ada:S3cretPw9@ho st/x?api_key=K3y"])
    func theErrorHidesTheUserInfoOfAnUnreadableURL(path: String) async throws {
        // Given a dispatcher and a request whose absolute URL has no readable host
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/x", response: .text("no"))
        let probe = CallbackProbe<NetworkResponse>()
        // When it is dispatched
        dispatcher.dispatch(request: .get(path), onSuccess: probe.onSuccess, onError: probe.onError)
        // Then it fails, and neither its message nor its description holds the password
        let error = try await probe.failure()
        #expect(!error.description.contains("S3cretPw9"))
        #expect(!error.userMessage.contains("S3cretPw9"))
        #expect(!error.description.contains("K3y"))
    }
}
