import Errand
import ErrandPolicies
import ErrandTestSupport
import Foundation
import Testing

@Suite struct InterceptingDispatcherTests {
    struct Refused: Error {}

    @Test func runsRequestInterceptorsInOrder() async throws {
        let inner = InMemoryDispatcher()
        inner.stub(.get, "/x", response: .status(200))
        let dispatcher = inner.intercepted(by: [
            DefaultHeadersInterceptor(["X-Client": "ios", "Accept-Language": "fr"]),
            UserAgentInterceptor("Shop/2.1"),
            APIKeyInterceptor("k1"),
            APIKeyInterceptor("q1", in: .query("api_key")),
            ClosureRequestInterceptor { request in
                await Task.yield()
                return request.header("X-Order", request.headers["X-API-Key"] ?? "missing")
            },
        ])
        let response = try await dispatcher.dispatch(
            .get("/x").header("Accept-Language", "de").query("api_key", "old"))
        let sent = try #require(inner.receivedRequests.first)
        #expect(sent.headers["X-Client"] == "ios")
        #expect(sent.headers["Accept-Language"] == "de")
        #expect(sent.headers["User-Agent"] == "Shop/2.1")
        #expect(sent.headers["X-API-Key"] == "k1")
        #expect(sent.headers["X-Order"] == "k1")
        #expect(sent.query == [URLQueryItem(name: "api_key", value: "q1")])
        #expect(response.request == sent)
    }

    @Test func aThrowingRequestInterceptorEndsTheRequestOnceKeepingTheError() async throws {
        let inner = InMemoryDispatcher()
        inner.stub(.get, "/x", response: .status(200))
        let dispatcher = inner.intercepted(by: [ClosureRequestInterceptor { _ in throw Refused() }])
        let probe = CallbackProbe<EmptyResponse>()
        Request<EmptyResponse>(.get("/x"))
            .execute(
                dispatcher: dispatcher, callbackQueue: nil, onSuccess: probe.onSuccess, onError: probe.onError
            )
        let error = try await probe.failure()
        #expect(error.underlyingError is Refused)
        #expect(error.message.contains("ClosureRequestInterceptor"))
        #expect(inner.receivedRequests.isEmpty)
        #expect(probe.deliveries.count == 1)
    }

    @Test func responseInterceptorsSeeTheRequestAndMayChangeOrFailTheResponse() async throws {
        let inner = InMemoryDispatcher()
        inner.stub(.get, "/x", response: .text("body", headers: ["X-Version": "1"]))
        inner.stub(.get, "/bad", response: .text("maintenance"))
        let dispatcher = inner.intercepted(
            by: [],
            responses: [
                ClosureResponseInterceptor { response in
                    if response.text == "maintenance" { throw Refused() }
                    var changed = response
                    changed.headers.set("X-Seen-Path", response.request?.path ?? "none")
                    return changed
                }
            ])
        let response = try await dispatcher.dispatch(.get("/x"))
        #expect(response.headers["X-Seen-Path"] == "/x")
        let probe = CallbackProbe<String>()
        Request<String>(.get("/bad"))
            .execute(
                dispatcher: dispatcher, callbackQueue: nil, onSuccess: probe.onSuccess, onError: probe.onError
            )
        let error = try await probe.failure()
        #expect(error.underlyingError is Refused)
        #expect(probe.deliveries.count == 1)
    }

    @Test func cancellingWhileAnInterceptorWaitsEndsAtOnce() async throws {
        let clock = ManualClock()
        let inner = InMemoryDispatcher()
        inner.stub(.get, "/x", response: .status(200))
        let dispatcher = inner.intercepted(by: [
            ClosureRequestInterceptor { request in
                try await clock.sleep(for: .seconds(10))
                return request
            }
        ])
        let probe = CallbackProbe<EmptyResponse>()
        let call = Request<EmptyResponse>(.get("/x"))
            .execute(
                dispatcher: dispatcher, callbackQueue: nil, onSuccess: probe.onSuccess, onError: probe.onError
            )
        await clock.waitForSleepers()
        call.cancel()
        let error = try await probe.failure()
        #expect(error.code == .cancelled)
        clock.advance(by: .seconds(10))
        #expect(inner.receivedRequests.isEmpty)
        #expect(probe.deliveries.count == 1)
    }
}
