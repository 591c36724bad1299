import Errand
import ErrandTestSupport
import Foundation
import Testing

@Suite struct AsyncExecuteTests {
    @Test func returnsTheValueWithItsResponse() async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(
            .get, "/users/1", response: .json(User(id: 1, name: "Ada"), headers: ["ETag": "\"v1\""]))
        let (user, response) = try await GetUser(id: 1).executeWithResponse(dispatcher: dispatcher)
        #expect(user == User(id: 1, name: "Ada"))
        #expect(response.statusCode == 200)
        #expect(response.headers["etag"] == "\"v1\"")
        #expect(response.request?.path == "/users/1")
    }

    @Test func cancellingTheTaskCancelsTheRequestPromptly() async {
        let clock = ManualClock()
        let dispatcher = InMemoryDispatcher(latency: .seconds(60), clock: clock)
        dispatcher.stub(.get, "/users", response: .json([User(id: 1, name: "Ada")]))
        let task = Task { try await GetAllUsers().execute(dispatcher: dispatcher) }
        await clock.waitForSleepers()
        task.cancel()
        let result = await task.result
        #expect((try? result.get()) == nil)
        #expect(failureCode(result) == .cancelled)
        #expect(clock.sleeperCount == 0)
    }

    @Test func aTaskCancelledBeforeStartingSendsNothing() async {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/users", response: .json([User(id: 1, name: "Ada")]))
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await GetAllUsers().execute(dispatcher: dispatcher)
        }
        let result = await task.result
        #expect(failureCode(result) == .cancelled)
        #expect(dispatcher.receivedRequests.isEmpty)
    }

    @Test func dispatchingRawGivesTheResponseWhateverTheStatus() async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/missing", response: .status(404))
        let response = try await dispatcher.dispatch(.get("/missing"))
        #expect(response.statusCode == 404)
    }

    @Test func aDispatcherThatCallsBackMoreThanOnceResumesTheCallerOnce() async throws {
        // Given a faulty dispatcher that answers twice and then fails
        let dispatcher = StutteringDispatcher()
        // When the async forms send through it
        let response = try await dispatcher.dispatch(.get("/twice"))
        let user = try await GetUser(id: 1).execute(dispatcher: dispatcher)
        // Then each caller resumes once, with the first answer
        #expect(response.statusCode == 200)
        #expect(user == User(id: 1, name: "Ada"))
    }
}

/// A broken dispatcher: every request gets two successes and a failure, all at once.
private struct StutteringDispatcher: NetworkDispatcher {
    func dispatch(
        request: RequestData, onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        let body = Data(#"{"id":1,"name":"Ada"}"#.utf8)
        onSuccess(NetworkResponse(statusCode: 200, body: body, request: request))
        onSuccess(NetworkResponse(statusCode: 500, request: request))
        onError(NetworkError(code: .transport, message: "too late", request: request))
        return CancellableAction.none
    }
}

/// The code of a result's `NetworkError`, when it failed with one.
func failureCode<Value>(_ result: Result<Value, any Error>) -> NetworkError.Code? {
    guard case .failure(let error) = result else { return nil }
    return (error as? NetworkError)?.code
}
