import Errand
import ErrandTestSupport
import Foundation
import Testing

/// The dispatcher keeps the last path it read; requests that differ from it must not reuse it.
@Suite struct InMemoryDispatcherRepeatTests {
    @Test func requestsThatFollowEachOtherAreEachMatchedByTheirOwnPathAndQuery() async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/items", response: .text("all"))
        dispatcher.stub(.get, "/items?page=2", response: .text("page 2"))
        dispatcher.stub(.get, "/items/*", response: .text("one"))

        var answers: [String] = []
        for request in [
            RequestData.get("/items"), .get("/items").query("page", "2"), .get("/items").query("page", "2"),
            .get("/items"), .get("/items/7"), .get("/items/7"), .get("/items?page=2"), .get("/items"),
        ] {
            answers.append(try await Request<String>(request).execute(dispatcher: dispatcher))
        }

        #expect(answers == ["all", "page 2", "page 2", "all", "one", "one", "page 2", "all"])
    }

    @Test func anUnreadablePathAfterAReadableOneIsStillRefused() async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/items", response: .text("all"))
        _ = try await Request<String>(.get("/items")).execute(dispatcher: dispatcher)

        do {
            _ = try await Request<String>(.get("http://exa mple.com/items")).execute(dispatcher: dispatcher)
            Issue.record("expected invalidRequest")
        } catch let error as NetworkError {
            #expect(error.code == .invalidRequest)
        }
        #expect(dispatcher.receivedRequests.map(\.path) == ["/items"])
    }
}
