import Errand
import ErrandTestSupport
import Foundation
import Testing

@Suite struct ExecuteTests {
    let users = [User(id: 1, name: "Ada"), User(id: 2, name: "Grace")]

    @Test func decodesTheResponseAndCallsBackOnce() async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/users", response: .json(users))
        let probe = CallbackProbe<[User]>()

        GetAllUsers().execute(
            dispatcher: dispatcher, callbackQueue: nil, onSuccess: probe.onSuccess, onError: probe.onError)

        #expect(try await probe.first().get() == users)
        #expect(probe.deliveries.count == 1)
    }

    @Test func callsBackOnTheMainQueueByDefault() async throws {
        let dispatcher = InMemoryDispatcher(stubs: [.init(.get, "/users", responses: [.json(users)])])
        let key = DispatchSpecificKey<String>()
        DispatchQueue.main.setSpecific(key: key, value: "main")
        let onMain = await withCheckedContinuation { continuation in
            GetAllUsers().execute(
                dispatcher: dispatcher,
                onSuccess: { _ in
                    continuation.resume(
                        returning: "success on \(DispatchQueue.getSpecific(key: key) ?? "another queue")")
                },
                onError: { error in continuation.resume(returning: "\(error)") })
        }
        #expect(onMain == "success on main")
    }

    @Test func callsBackOnTheChosenQueue() async throws {
        let queue = DispatchQueue(label: "errand.tests.callback")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "chosen")
        let dispatcher = InMemoryDispatcher(stubs: [.init(.get, "/users", responses: [.json(users)])])
        let label = await withCheckedContinuation { continuation in
            GetAllUsers().execute(
                dispatcher: dispatcher, callbackQueue: queue,
                onSuccess: { _ in continuation.resume(returning: DispatchQueue.getSpecific(key: key)) },
                onError: { _ in continuation.resume(returning: nil) })
        }
        #expect(label == "chosen")
    }

    @Test func addsAcceptJSONUnlessTheRequestSetsIt() async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/users", response: .json(users))
        dispatcher.stub(.get, "/raw", response: .text("x"))
        _ = try await GetAllUsers().execute(dispatcher: dispatcher)
        _ = try await Request<[User]>(.get("/users").header("accept", "application/vnd.v2+json"))
            .execute(dispatcher: dispatcher)
        _ = try await Request<String>(.get("/raw")).execute(dispatcher: dispatcher)
        let accepts = dispatcher.receivedRequests.map { $0.headers.values(for: "Accept") }
        #expect(accepts == [["application/json"], ["application/vnd.v2+json"], []])
    }

    @Test(arguments: [404, 500])
    func aNonSuccessStatusKeepsTheResponse(status: Int) async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(
            .get, "/users",
            response: .text("{\"error\":\"nope\"}", status: status, headers: ["X-Request-ID": "r1"]))
        do {
            _ = try await GetAllUsers().execute(dispatcher: dispatcher)
            Issue.record("expected a failure")
        } catch let error as NetworkError {
            #expect(error.code == .unacceptableStatus)
            #expect(error.statusCode == status)
            #expect(error.response?.text == "{\"error\":\"nope\"}")
            #expect(error.response?.headers["x-request-id"] == "r1")
            #expect(error.request?.path == "/users")
            #expect(error.description.contains("\(status)"))
            #expect(error.description.contains("nope"))
        } catch { Issue.record(error) }
    }

    @Test func aRequestCanAcceptOtherStatusCodes() async throws {
        struct Lenient: RequestType {
            typealias ResponseType = String
            var data: RequestData { .get("/teapot") }
            var acceptableStatusCodes: Range<Int> { 200..<500 }
        }
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/teapot", response: .text("short and stout", status: 418))
        #expect(try await Lenient().execute(dispatcher: dispatcher) == "short and stout")
    }

    @Test func aCustomValidatorsErrorIsKept() async throws {
        struct APIError: Error { let reason: String }
        struct Strict: RequestType {
            typealias ResponseType = EmptyResponse
            var data: RequestData { .get("/x") }
            func validate(_ response: NetworkResponse) throws {
                if response.headers["X-Deprecated"] != nil { throw APIError(reason: "deprecated") }
            }
        }
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/x", response: .status(200, headers: ["X-Deprecated": "1"]))
        do {
            _ = try await Strict().execute(dispatcher: dispatcher)
            Issue.record("expected a failure")
        } catch let error as NetworkError {
            #expect(error.code == .unacceptableStatus)
            #expect((error.underlyingError as? APIError)?.reason == "deprecated")
            #expect(error.response?.statusCode == 200)
        } catch { Issue.record(error) }
    }

    @Test func emptyResponseAcceptsAnEmptyBodyAnd204() async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.delete, "/users/1", response: .status(204))
        dispatcher.stub(.post, "/ping", response: .text("ignored"))
        _ = try await Request<EmptyResponse>(.delete("/users/1")).execute(dispatcher: dispatcher)
        _ = try await Request<EmptyResponse>(.post("/ping")).execute(dispatcher: dispatcher)
    }

    @Test func dataAndStringPassThroughRaw() async throws {
        let bytes = Data([0xFF, 0x00, 0x7F])
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/bytes", response: .data(bytes))
        dispatcher.stub(.get, "/text", response: .text("<html>héllo</html>", contentType: "text/html"))
        #expect(try await Request<Data>(.get("/bytes")).execute(dispatcher: dispatcher) == bytes)
        #expect(
            try await Request<String>(.get("/text")).execute(dispatcher: dispatcher) == "<html>héllo</html>")
    }

    @Test func httpResponseDecodableGetsItsStatusCode() async throws {
        struct Created: HTTPResponseDecodable, Sendable {
            let id: Int
            var statusCode: Int?
        }
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.post, "/users", response: .text(#"{"id":7}"#, status: 201))
        let created = try await Request<Created>(.post("/users")).execute(dispatcher: dispatcher)
        #expect(created.id == 7)
        #expect(created.statusCode == 201)
    }

    @Test func theStatusCodeIsSetWhateverTypeWasDecodedBefore() async throws {
        // Given a type that wants its status and one that does not, decoded in turn
        struct Created: HTTPResponseDecodable, Sendable {
            let id: Int
            var statusCode: Int?
        }
        struct Plain: Decodable, Sendable { let id: Int }
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.post, "/users", response: .text(#"{"id":7}"#, status: 201))
        dispatcher.stub(.get, "/users/7", response: .text(#"{"id":7}"#))
        for _ in 0..<3 {
            _ = try await Request<Plain>(.get("/users/7")).execute(dispatcher: dispatcher)
            _ = try await Request<Plain>(.get("/users/7")).execute(dispatcher: dispatcher)
            let created = try await Request<Created>(.post("/users")).execute(dispatcher: dispatcher)

            // Then each value of the first type has its status, however often the other came first
            #expect(created.statusCode == 201)
        }
    }

    @Test func aRequestCanBringItsOwnDecoderOrDecodeStep() async throws {
        struct Stamped: Decodable, Sendable { let createdAt: Date }
        struct GetStamped: RequestType {
            typealias ResponseType = Stamped
            var data: RequestData { .get("/stamped") }
            var decoder: JSONDecoder {
                let decoder = JSONDecoder()
                decoder.keyDecodingStrategy = .convertFromSnakeCase
                decoder.dateDecodingStrategy = .secondsSince1970
                return decoder
            }
        }
        struct CountLines: RequestType {
            typealias ResponseType = Int
            var data: RequestData { .get("/lines") }
            func decode(_ response: NetworkResponse) throws -> Int {
                response.text.split(separator: "\n").count
            }
        }
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/stamped", response: .text(#"{"created_at": 86400}"#))
        dispatcher.stub(.get, "/lines", response: .text("a\nb\nc"))
        #expect(
            try await GetStamped().execute(dispatcher: dispatcher).createdAt
                == Date(timeIntervalSince1970: 86400))
        #expect(try await CountLines().execute(dispatcher: dispatcher) == 3)
    }

    @Test func aDecodingFailureNamesTheCodingPathAndShowsTheBody() async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(
            .get, "/users", response: .text(#"[{"id":1,"name":"Ada"},{"id":"two","name":"Grace"}]"#))
        do {
            _ = try await GetAllUsers().execute(dispatcher: dispatcher)
            Issue.record("expected a decoding failure")
        } catch let error as NetworkError {
            #expect(error.code == .decoding)
            #expect(error.message.contains("[1].id"))
            #expect(error.message.contains(#""id":"two""#))
            #expect(error.underlyingError is DecodingError)
            #expect(error.response?.statusCode == 200)
        } catch { Issue.record(error) }
    }

    @Test func anEmptyBodyForADecodableTypeSaysSo() async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/users", response: .status(200))
        do {
            _ = try await GetAllUsers().execute(dispatcher: dispatcher)
            Issue.record("expected a decoding failure")
        } catch let error as NetworkError {
            #expect(error.code == .decoding)
            #expect(error.message.contains("empty body"))
        } catch { Issue.record(error) }
    }

    @Test func anInvalidRequestIsRefusedBeforeAnythingIsSent() async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/users", response: .json(users))
        let probe = CallbackProbe<[User]>()
        Request<[User]>(.get("/users").body(.text("no")))
            .execute(
                dispatcher: dispatcher, callbackQueue: nil, onSuccess: probe.onSuccess, onError: probe.onError
            )
        #expect(probe.deliveries.count == 1)
        let error = try await probe.failure()
        #expect(error.code == .invalidRequest)
        #expect(dispatcher.receivedRequests.isEmpty)
    }

    @Test func theDefaultDispatcherCanBeOverriddenForAScope() async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/users", response: .json(users))
        let result = try await DefaultDispatcher.withOverride(dispatcher) {
            try await GetAllUsers().execute()
        }
        #expect(result == users)
        #expect(DefaultDispatcher.current is URLSessionDispatcher)
    }

    @Test func parallelOverridesDoNotSeeEachOther() async throws {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<20 {
                group.addTask {
                    let dispatcher = InMemoryDispatcher()
                    dispatcher.stub(.get, "/users", response: .json([User(id: index, name: "\(index)")]))
                    return try await DefaultDispatcher.withOverride(dispatcher) {
                        await Task.yield()
                        return try await GetAllUsers().execute().first?.id == index
                    }
                }
            }
            for try await matched in group { #expect(matched) }
        }
    }
}
