import Errand
import ErrandPolicies
import ErrandSync
import ErrandTestSupport
import Foundation
import Testing

/// A request's identity is computed once per request and passed on with it, and never outlives
/// a change that could change it.
@Suite struct RequestIdentityMemoTests {
    /// Every change that can change whose request it is forgets the identity computed before.
    @Test func everyChangeThatCanChangeTheIdentityForgetsIt() {
        let changes: [(String, (inout RequestData) -> Void)] = [
            ("a header", { $0.headers.set("X-API-Key", "bob") }),
            ("a query item", { $0.query.append(URLQueryItem(name: "access_token", value: "bob")) }),
            ("the path", { $0.path = "https://bob:pw@api.example.com/me" }),
            ("the session", { $0.session = nil }),
        ]
        for (name, change) in changes {
            var request = RequestData.get("/me").header("X-API-Key", "alice")
            request.noteIdentity()
            let before = request.identity
            #expect(request.marks.identity == before, "\(name): noted")
            change(&request)
            #expect(request.marks.identity == nil, "\(name): forgotten")
            #expect(request.identity == RequestIdentity(request), "\(name): computed afresh")
        }
        var request = RequestData.get("/me").header("X-API-Key", "alice")
        request.noteIdentity()
        request.headers.set("X-API-Key", "bob")
        #expect(request.identity != RequestIdentity(.get("/me").header("X-API-Key", "alice")))
    }

    /// A coalescer outside a cache computes the identity; the cache reads it from the request.
    @Test func aCoalescerHandsTheIdentityItComputedToTheCacheInside() async throws {
        let server = InMemoryDispatcher()
        server.stub(.get, "/me", response: .text("alice", headers: ["Cache-Control": "max-age=60"]))
        let stack = server.caching().coalescingIdenticalRequests()
        _ = try await Request<String>(.get("/me").header("X-API-Key", "alice")).execute(dispatcher: stack)
        let sent = try #require(server.receivedRequests.first)
        #expect(sent.marks.identity == RequestIdentity(.get("/me").header("X-API-Key", "alice")))
    }

    /// An interceptor between a coalescer and a cache that adds a credential changes the
    /// identity: the cache computes it afresh and answers nobody else with the entry.
    @Test func aCredentialAddedBetweenTheCoalescerAndTheCacheIsSeen() async throws {
        let server = InMemoryDispatcher()
        server.stub(.get, "/me", response: .text("alice", headers: ["Cache-Control": "max-age=60"]))
        let user = Locked("alice")
        let stack = server.caching()
            .intercepted(by: [
                ClosureRequestInterceptor { request in
                    request.header("X-API-Key", user.withLock { $0 })
                }
            ])
            .coalescingIdenticalRequests()
        _ = try await Request<String>(.get("/me")).execute(dispatcher: stack)
        user.withLock { $0 = "bob" }
        server.reset()
        server.stub(.get, "/me", response: .text("bob", headers: ["Cache-Control": "max-age=60"]))
        let second = try await Request<String>(.get("/me")).execute(dispatcher: stack)
        #expect(second == "bob")
        #expect(server.receivedRequests.first?.headers["X-API-Key"] == "bob")
    }
}
