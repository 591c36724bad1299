import Errand
import ErrandPolicies
import Foundation
import Testing

/// Uses each public type across a task boundary, so the `Sendable` claims are checked by the compiler.
@Suite struct SendableTests {
    @Test func publicTypesCrossTaskBoundaries() async throws {
        let request = RequestData.post("/users").body(.json(User(id: 1, name: "Ada"))).query("a", "b")
        let headers: HTTPHeaders = ["A": "1"]
        let method = HTTPMethod.patch
        let part = MultipartPart.field("a", "b")
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.post, "/users", response: .json(User(id: 1, name: "Ada")))
        let stub = InMemoryDispatcher.Stub(.get, "/x", responses: [.status(200)])
        let session: any NetworkDispatcher = URLSessionDispatcher(baseURL: URL(string: "http://127.0.0.1:9"))
        let cancellable: any Cancellable = CancellableAction {}
        let typed = Request<User>(request)
        let identity = RequestIdentity(.get("/me").header("X-API-Key", "k"))
        let expired = ExpiredSession(generation: 1, reason: "refused")

        let outcome = try await Task.detached {
            dispatcher.stub(stub)
            _ = (headers, method, part, session, identity, expired)
            cancellable.cancel()
            let user = try await typed.execute(dispatcher: dispatcher)
            let response = try await dispatcher.dispatch(RequestData.get("/x"))
            let error = NetworkError(code: .transport, message: "m", request: request, response: response)
            return (user, response, error, EmptyResponse())
        }.value
        #expect(outcome.0.id == 1)
        #expect(outcome.1.statusCode == 200)
        #expect(outcome.2.code == .transport)
    }
}
