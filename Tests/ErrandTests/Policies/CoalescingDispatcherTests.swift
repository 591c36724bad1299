import Errand
import ErrandPolicies
import ErrandSync
import ErrandTestSupport
import Foundation
import Testing

@Suite struct CoalescingDispatcherTests {
    private static func dispatch(
        _ request: RequestData, through dispatcher: any NetworkDispatcher, count: Int
    ) -> (probes: [CallbackProbe<NetworkResponse>], handles: [any Cancellable]) {
        let probes = (0..<count).map { _ in CallbackProbe<NetworkResponse>() }
        let handles = probes.map {
            dispatcher.dispatch(request: request, onSuccess: $0.onSuccess, onError: $0.onError)
        }
        return (probes, handles)
    }

    @Test func hundredConcurrentIdenticalGetsReachTheServerOnceAndAllGetTheResponse() async throws {
        // Given a coalescing dispatcher in front of a server that holds requests open
        let server = HoldingDispatcher()
        let dispatcher = server.coalescingIdenticalRequests()
        let probes = (0..<100).map { _ in CallbackProbe<NetworkResponse>() }

        // When 100 identical GETs are sent from 100 tasks at once
        await withTaskGroup(of: Void.self) { group in
            for probe in probes {
                group.addTask {
                    dispatcher.dispatch(
                        request: .get("/users/1").header("Authorization", "Bearer a"),
                        onSuccess: probe.onSuccess, onError: probe.onError)
                }
            }
        }
        #expect(server.started.count == 1)
        server.answerOldest(body: Data("{\"id\":1}".utf8))

        // Then every caller got the one response, exactly once
        for probe in probes {
            let response = try await probe.first().get()
            #expect(response.body == Data("{\"id\":1}".utf8))
            #expect(probe.deliveries.count == 1)
        }
        #expect(server.started.count == 1)
    }

    @Test func differentCredentialsOrNegotiatedHeadersAreNeverShared() async throws {
        // Given a coalescing dispatcher that also matches X-Tenant
        let server = HoldingDispatcher()
        let dispatcher = server.coalescingIdenticalRequests(alsoMatching: ["x-tenant"])
        let base = RequestData.get("/me")

        // When reads differ only in a header that matters, or in the auth policy asked for
        let variants: [RequestData] = [
            base.header("Authorization", "Bearer alice"), base.header("Authorization", "Bearer bob"),
            base.header("authorization", "Bearer bob").header("Cookie", "s=1"),
            base.header("Accept", "text/plain"), base.header("Accept-Language", "fr"),
            base.header("X-Tenant", "a"), base.header("X-Tenant", "b"),
            {
                var request = base
                request.authentication = .none
                return request
            }(), base,
        ]
        for request in variants {
            dispatcher.dispatch(request: request, onSuccess: { _ in }, onError: { _ in })
        }
        // and one read that differs only in a header that does not matter
        dispatcher.dispatch(request: base.header("X-Trace", "1"), onSuccess: { _ in }, onError: { _ in })

        // Then each variant got a dispatch of its own; the last one shared
        #expect(server.started.count == variants.count)
    }

    @Test func theSameURLSpelledDifferentlyIsShared() async throws {
        // Given a coalescing dispatcher
        let server = HoldingDispatcher()
        let dispatcher = server.coalescingIdenticalRequests()

        // When the same URL is asked for as a written query, as query items, through a dot segment
        for request: RequestData in [
            .get("/search?q=swift"), .get("/search").query("q", "swift"), .get("/a/../search?q=swift#top"),
        ] {
            dispatcher.dispatch(request: request, onSuccess: { _ in }, onError: { _ in })
        }

        // Then one dispatch serves them all
        #expect(server.started.count == 1)
    }

    @Test func cancellingAllButOneLeavesItToCompleteAndEachCancelledCallerHearsOnce() async throws {
        // Given 100 callers sharing one dispatch
        let server = HoldingDispatcher()
        let (probes, handles) = Self.dispatch(
            .get("/feed"), through: server.coalescingIdenticalRequests(), count: 100)

        // When 99 of them cancel (one of them twice), the first caller among them
        for handle in handles.dropLast() { handle.cancel() }
        handles[0].cancel()

        // Then the dispatch is still open, each of the 99 heard `cancelled` once
        #expect(server.openCount == 1)
        #expect(server.cancelledCount == 0)
        for probe in probes.dropLast() {
            #expect(try await probe.failure().code == .cancelled)
            #expect(probe.deliveries.count == 1)
        }
        // and the last one gets the response
        server.answerOldest(status: 200)
        let last = try #require(probes.last)
        #expect(try await last.first().get().statusCode == 200)
        #expect(last.deliveries.count == 1)
    }

    @Test func cancellingEveryCallerCancelsTheDispatch() async throws {
        // Given 100 callers sharing one dispatch
        let server = HoldingDispatcher()
        let dispatcher = server.coalescingIdenticalRequests()
        let (probes, handles) = Self.dispatch(.get("/feed"), through: dispatcher, count: 100)

        // When all of them cancel
        for handle in handles { handle.cancel() }

        // Then the dispatch is cancelled once and each caller heard `cancelled` once
        #expect(server.cancelledCount == 1)
        #expect(server.openCount == 0)
        for probe in probes {
            #expect(try await probe.failure().code == .cancelled)
            #expect(probe.deliveries.count == 1)
        }
        // and a new identical read starts a new dispatch
        dispatcher.dispatch(request: .get("/feed"), onSuccess: { _ in }, onError: { _ in })
        #expect(server.started.count == 2)
    }

    @Test func unsafeMethodsAndBodiesAreNeverShared() async throws {
        // Given a coalescing dispatcher
        let server = HoldingDispatcher()
        let dispatcher = server.coalescingIdenticalRequests()

        // When two identical POSTs, two identical DELETEs and two GETs with a body are sent
        for request: RequestData in [
            .post("/orders").body(.text("x")), .post("/orders").body(.text("x")),
            RequestData(path: "/orders/1", method: .delete), RequestData(path: "/orders/1", method: .delete),
            RequestData(path: "/orders", body: .text("x")), RequestData(path: "/orders", body: .text("x")),
        ] {
            dispatcher.dispatch(request: request, onSuccess: { _ in }, onError: { _ in })
        }

        // Then each one reached the server
        #expect(server.started.count == 6)
    }

    @Test func aFailureIsSharedAndEachCallerGetsItOnceWithItsOwnRequest() async throws {
        // Given 10 callers sharing one dispatch, each with its own trace header
        let server = HoldingDispatcher()
        let dispatcher = server.coalescingIdenticalRequests()
        let probes = (0..<10).map { _ in CallbackProbe<NetworkResponse>() }
        for (index, probe) in probes.enumerated() {
            dispatcher.dispatch(
                request: .get("/feed").header("X-Trace", "\(index)"), onSuccess: probe.onSuccess,
                onError: probe.onError)
        }

        // When the shared dispatch fails
        server.failOldest(.transport)

        // Then each caller gets the failure once, naming its own request
        for (index, probe) in probes.enumerated() {
            let error = try await probe.failure()
            #expect(error.code == .transport)
            #expect(error.request?.headers["X-Trace"] == "\(index)")
            #expect(probe.deliveries.count == 1)
        }
        #expect(server.started.count == 1)
    }

    @Test func aReadAfterTheSharedDispatchCompletedStartsANewOne() async throws {
        // Given a shared dispatch that has completed
        let server = HoldingDispatcher()
        let dispatcher = server.coalescingIdenticalRequests()
        let first = CallbackProbe<NetworkResponse>()
        dispatcher.dispatch(request: .get("/feed"), onSuccess: first.onSuccess, onError: first.onError)
        server.answerOldest()
        _ = try await first.first().get()

        // When the same read is sent again
        let second = CallbackProbe<NetworkResponse>()
        dispatcher.dispatch(request: .get("/feed"), onSuccess: second.onSuccess, onError: second.onError)

        // Then it reaches the server again
        #expect(server.started.count == 2)
        server.answerOldest()
        #expect(try await second.first().get().statusCode == 200)
    }

    @Test func crossesTaskBoundaries() async throws {
        // Given a coalescing dispatcher made on one task
        let server = InMemoryDispatcher()
        server.stub(.get, "/x", response: .status(204))
        let dispatcher: CoalescingDispatcher = server.coalescingIdenticalRequests(alsoMatching: ["X-Tenant"])

        // When it is used from a detached task
        let status = try await Task.detached { try await dispatcher.dispatch(.get("/x")).statusCode }.value

        // Then it works there
        #expect(status == 204)
        #expect(
            dispatcher.matchedHeaders == ["Authorization", "Accept", "Accept-Language", "Cookie", "X-Tenant"])
    }
}
