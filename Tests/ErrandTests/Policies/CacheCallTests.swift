import Errand
import ErrandPolicies
import ErrandTestSupport
import Foundation
import Testing

/// The caching dispatcher keeps the dispatch contracts: exactly one callback, prompt cancellation.
@Suite struct CacheCallTests {
    static let url = CacheDispatcherTests.url

    @Test func cancellingAMissEndsItOnceWithCancelledAndStoresNothing() async throws {
        // Given a server that answers after 5 s on a manual clock
        let clock = ManualClock()
        let server = InMemoryDispatcher(clock: clock)
        server.stub(
            .get, Self.url,
            response: .status(200, headers: ["Cache-Control": "max-age=60"]).delayed(by: .seconds(5)))
        let store = MemoryCacheStore()
        let cache = server.caching(store, now: ManualTime().now)
        let probe = CallbackProbe<NetworkResponse>()
        // When the request is cancelled while it waits
        let call = cache.dispatch(request: .get(Self.url), onSuccess: probe.onSuccess, onError: probe.onError)
        await clock.waitForSleepers()
        call.cancel()
        clock.advance(by: .seconds(10))
        // Then it ends with cancelled, exactly once, and nothing is stored
        #expect(try await probe.failure().code == .cancelled)
        for _ in 0..<20 { await Task.yield() }
        #expect(probe.deliveries.count == 1)
        #expect(store.byteCount == 0)
    }

    @Test func aHitAndAFailureEachDeliverExactlyOnce() async throws {
        // Given a stored response and a URL whose transport fails
        let server = InMemoryDispatcher()
        server.stub(.get, Self.url, response: .status(200, headers: ["Cache-Control": "max-age=60"]))
        server.stub(.get, "https://api.test/down", response: .failure(.transport))
        let cache = server.caching(now: ManualTime().now)
        _ = try await cache.dispatch(.get(Self.url))
        // When each is dispatched with callbacks
        let hit = CallbackProbe<NetworkResponse>()
        let failure = CallbackProbe<NetworkResponse>()
        cache.dispatch(request: .get(Self.url), onSuccess: hit.onSuccess, onError: hit.onError)
        cache.dispatch(
            request: .get("https://api.test/down"), onSuccess: failure.onSuccess, onError: failure.onError)
        // Then each got one callback
        let response = try await hit.first().get()
        #expect(response.cacheStatus == .hit)
        #expect(try await failure.failure().code == .transport)
        for _ in 0..<20 { await Task.yield() }
        #expect(hit.deliveries.count == 1 && failure.deliveries.count == 1)
    }
}
