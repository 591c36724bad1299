import ErrandSync
import ErrandTestSupport
import Foundation
import Testing

@testable import Errand
@testable import ErrandPolicies

/// What a miss costs and keeps: the entries a memory store would refuse are not built, with the
/// same outcome as storing them, and cache keys of query-less paths are made once.
@Suite struct CacheMissTests {
    @Test func aResponseOverTheMemoryLimitDropsTheStoredVariantAsStoringItWould() async throws {
        // Given a response stored under a limit of 400 bytes, which must be revalidated
        let time = ManualTime()
        let store = MemoryCacheStore(byteLimit: 400)
        let (cache, _) = CacheDispatcherTests.cache(
            [
                CacheDispatcherTests.ok(["ETag": "\"v1\"", "Cache-Control": "max-age=0"]),
                CacheDispatcherTests.ok(["ETag": "\"v2\""], body: String(repeating: "x", count: 500)),
            ], time: time, store: store)
        _ = try await cache.dispatch(.get(CacheDispatcherTests.url))
        #expect(store.keys == [CacheDispatcherTests.url])
        // When the revalidation answers with a new body larger than the whole store
        let second = try await cache.dispatch(.get(CacheDispatcherTests.url))
        // Then that body is delivered, and the stale variant is gone rather than kept
        #expect(second.body.count == 500 && second.cacheStatus == .network)
        #expect(store.keys.isEmpty && store.byteCount == 0)
    }

    @Test func aStoreWithNoRoomKeepsNothingAndEveryRequestReachesTheServer() async throws {
        let time = ManualTime()
        let store = MemoryCacheStore(byteLimit: 0)
        let (cache, server) = CacheDispatcherTests.cache(
            [CacheDispatcherTests.ok(["Cache-Control": "max-age=60", "ETag": "\"v1\""])], time: time,
            store: store)

        for _ in 0..<3 {
            #expect(try await cache.dispatch(.get(CacheDispatcherTests.url)).cacheStatus == .network)
        }

        #expect(server.receivedRequests.count == 3)
        #expect(store.keys.isEmpty)
    }

    @Test func aPathMemoMakesEachValueOnceAndStaysWithinItsLimit() {
        let memo = PathMemo<String>(limit: 2)
        let made = Locked(0)
        let make = { (value: String) in
            { () -> String? in
                made.withLock { $0 += 1 }
                return value
            }
        }

        #expect(memo.value(for: "/a", otherwise: make("A")) == "A")
        #expect(memo.value(for: "/a", otherwise: make("other")) == "A")
        #expect(made.withLock { $0 } == 1)
        #expect(memo.value(for: "/none") { nil } == nil)
        #expect(memo.value(for: "/none", otherwise: make("N")) == "N")
        // A third path starts the memo again: "/a" is made anew.
        #expect(memo.value(for: "/b", otherwise: make("B")) == "B")
        #expect(memo.value(for: "/a", otherwise: make("A2")) == "A2")
        #expect(made.withLock { $0 } == 4)
    }

    @Test func theCacheKeyOfAPathIsTheSameWhetherMadeOrRemembered() throws {
        let cache = InMemoryDispatcher().caching(
            MemoryCacheStore(), baseURL: URL(string: "https://api.test/v1/"))
        let first = cache.cacheKey(for: .get("items"))
        let again = cache.cacheKey(for: .get("items"))
        let withQuery = cache.cacheKey(for: RequestData.get("items").query("access_token", "secret"))

        #expect(first == "https://api.test/v1/items")
        #expect(again == first)
        #expect(withQuery?.contains("secret") == false)
        #expect(withQuery?.hasPrefix("https://api.test/v1/items?access_token=") == true)
    }
}
