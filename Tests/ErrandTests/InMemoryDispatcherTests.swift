import Errand
import ErrandTestSupport
import Foundation
import Testing

@Suite struct InMemoryDispatcherTests {
    @Test func matchesByMethodAndPathWhateverTheSlashes() async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/users/1", response: .json(User(id: 1, name: "Ada")))
        for path in ["/users/1", "users/1", "https://api.example.com/users/1"] {
            let user = try await Request<User>(.get(path)).execute(dispatcher: dispatcher)
            #expect(user.id == 1)
        }
    }

    @Test func aStarSegmentMatchesAnyOneSegment() async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/users/*", response: .json(User(id: 0, name: "any")))
        #expect(try await GetUser(id: 42).execute(dispatcher: dispatcher).name == "any")
        await #expect(throws: NetworkError.self) {
            try await Request<User>(.get("/users/1/posts")).execute(dispatcher: dispatcher)
        }
    }

    @Test func queryItemsInTheStubPathMustBePresent() async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/users?page=1", response: .json([User(id: 1, name: "first")]))
        dispatcher.stub(.get, "/users?page=2", response: .json([User(id: 2, name: "second")]))
        let second = try await Request<[User]>(.get("/users").query("page", "2").query("size", "10"))
            .execute(dispatcher: dispatcher)
        #expect(second.first?.id == 2)
        let first = try await Request<[User]>(.get("/users?page=1")).execute(dispatcher: dispatcher)
        #expect(first.first?.id == 1)
    }

    @Test func aMatcherClosureCanLookAtTheBody() async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(
            InMemoryDispatcher.Stub(
                .post, "/users", where: { $0.body?.data == Data(#"{"id":1,"name":"Ada"}"#.utf8) },
                responses: [.status(201)]))
        _ = try await Request<EmptyResponse>(.post("/users").body(.json(User(id: 1, name: "Ada"))))
            .execute(dispatcher: dispatcher)
        await #expect(throws: NetworkError.self) {
            try await Request<EmptyResponse>(.post("/users").body(.json(User(id: 2, name: "Bob"))))
                .execute(dispatcher: dispatcher)
        }
    }

    @Test func theStubAddedLastWins() async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/users/1", response: .json(User(id: 1, name: "default")))
        dispatcher.stub(.get, "/users/1", response: .json(User(id: 1, name: "override")))
        #expect(try await GetUser(id: 1).execute(dispatcher: dispatcher).name == "override")
    }

    @Test func aSequenceRepeatsItsLastResponseByDefault() async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/n", responses: [.text("1"), .text("2")])
        var seen: [String] = []
        for _ in 0..<4 { seen.append(try await Request<String>(.get("/n")).execute(dispatcher: dispatcher)) }
        #expect(seen == ["1", "2", "2", "2"])
    }

    @Test func aSequenceCanFailWhenUsedUp() async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/n", responses: [.text("1")], whenExhausted: .fail)
        _ = try await Request<String>(.get("/n")).execute(dispatcher: dispatcher)
        do {
            _ = try await Request<String>(.get("/n")).execute(dispatcher: dispatcher)
            Issue.record("expected the stub to be used up")
        } catch let error as NetworkError {
            #expect(error.code == .unmatchedRequest)
            #expect(error.message.contains("served all 1"))
        } catch { Issue.record(error) }
    }

    @Test(arguments: NetworkError.Code.allCases)
    func stubsAnyErrorCode(code: NetworkError.Code) async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/x", response: .failure(code, message: "boom"))
        do {
            _ = try await Request<String>(.get("/x")).execute(dispatcher: dispatcher)
            Issue.record("expected \(code)")
        } catch let error as NetworkError {
            #expect(error.code == code)
            #expect(error.message == "boom")
        } catch { Issue.record(error) }
    }

    @Test func loadsJSONFromAFile() async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/users", response: try .jsonFile(Fixtures.url("users.json")))
        let users = try await GetAllUsers().execute(dispatcher: dispatcher)
        #expect(users.map(\.name) == ["Ada Lovelace", "Grace Hopper"])
    }

    @Test func recordsEveryRequestAsAnEquatableValue() async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.post, "/users", response: .status(201))
        _ = try await Request<EmptyResponse>(.post("/users").body(.form(["name": "Ada"]))).execute(
            dispatcher: dispatcher)
        _ = try? await GetAllUsers().execute(dispatcher: dispatcher)
        let expected = RequestData.post("/users").body(.form(["name": "Ada"])).header(
            "Accept", "application/json")
        #expect(
            dispatcher.receivedRequests == [
                expected, RequestData.get("/users").header("Accept", "application/json"),
            ])
        dispatcher.reset()
        #expect(dispatcher.receivedRequests.isEmpty)
    }

    @Test func canRunWithoutKeepingAHistory() async throws {
        let dispatcher = InMemoryDispatcher(recordsRequests: false)
        dispatcher.stub(.get, "/users", response: .json([User(id: 1, name: "Ada")]))
        for _ in 0..<3 { _ = try await GetAllUsers().execute(dispatcher: dispatcher) }
        #expect(dispatcher.receivedRequests.isEmpty)
    }

    @Test func anUnmatchedRequestShowsTheRequestAndTheNearestStubs() async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/products", response: .status(200))
        dispatcher.stub(.post, "/users/3", response: .status(201))
        dispatcher.stub(.get, "/users/4", response: .status(200))
        dispatcher.stub(.get, "/orders/9/items", response: .status(200))
        do {
            _ = try await GetUser(id: 3).execute(dispatcher: dispatcher)
            Issue.record("expected unmatchedRequest")
        } catch let error as NetworkError {
            #expect(error.code == .unmatchedRequest)
            let lines = error.message.split(separator: "\n").map(String.init)
            #expect(lines[0] == "No stub matches GET /users/3 (the dispatcher has 4 stubs).")
            #expect(lines[1] == "Nearest stubs:")
            #expect(lines[2] == "  POST /users/3 — method is POST, not GET")
            #expect(lines[3] == "  GET /users/4 — path is /users/4, not /users/3")
            #expect(lines.count == 6)
            #expect(lines[5].contains(#"dispatcher.stub(.get, "/users/3""#))
        } catch { Issue.record(error) }
    }

    @Test func latencyWaitsOnTheInjectedClock() async throws {
        let clock = ManualClock()
        let dispatcher = InMemoryDispatcher(latency: .seconds(2), clock: clock)
        dispatcher.stub(.get, "/users", response: .json([User(id: 1, name: "Ada")]))
        let probe = CallbackProbe<[User]>()
        GetAllUsers().execute(
            dispatcher: dispatcher, callbackQueue: nil, onSuccess: probe.onSuccess, onError: probe.onError)
        await clock.waitForSleepers()
        clock.advance(by: .seconds(1))
        #expect(probe.deliveries.isEmpty)
        clock.advance(by: .seconds(1))
        #expect(try await probe.first().get().count == 1)
    }

    @Test func aDelayedResponseCanBeCancelledWhileItWaits() async throws {
        let clock = ManualClock()
        let dispatcher = InMemoryDispatcher(clock: clock)
        dispatcher.stub(.get, "/slow", response: Response.text("late").delayed(by: .seconds(30)))
        let probe = CallbackProbe<String>()
        let call = Request<String>(.get("/slow"))
            .execute(
                dispatcher: dispatcher, callbackQueue: nil, onSuccess: probe.onSuccess, onError: probe.onError
            )
        await clock.waitForSleepers()
        call.cancel()
        let error = try await probe.failure()
        #expect(error.code == .cancelled)
        clock.advance(by: .seconds(60))
        #expect(probe.deliveries.count == 1)
    }

    @Test func isSafeUnderConcurrentUse() async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/users/*", response: .json(User(id: 0, name: "x")))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    if index.isMultiple(of: 10) {
                        dispatcher.stub(.get, "/other/\(index)", response: .status(200))
                    }
                    _ = try await GetUser(id: index).execute(dispatcher: dispatcher)
                }
            }
            try await group.waitForAll()
        }
        #expect(dispatcher.receivedRequests.count == 200)
    }
}

private typealias Response = InMemoryDispatcher.Response
