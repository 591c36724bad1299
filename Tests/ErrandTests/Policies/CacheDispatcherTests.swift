import Errand
import ErrandPolicies
import ErrandSync
import ErrandTestSupport
import Foundation
import Testing

/// The caching dispatcher over an in-memory server, with the wall-clock time set by hand.
@Suite struct CacheDispatcherTests {
    static let url = "https://api.test/items"

    /// A server answering `GET url` with `responses` in turn, behind a cache on `time`.
    static func cache(
        _ responses: [InMemoryDispatcher.Response], time: ManualTime,
        store: any CacheStore = MemoryCacheStore()
    ) -> (CachingDispatcher, InMemoryDispatcher) {
        let server = InMemoryDispatcher()
        server.stub(.get, url, responses: responses)
        return (server.caching(store, now: time.now), server)
    }

    static func ok(_ headers: HTTPHeaders, body: String = "stored") -> InMemoryDispatcher.Response {
        .status(200, headers: headers, body: Data(body.utf8))
    }

    @Test func answersAFreshResponseFromTheStoreWithoutReachingTheServer() async throws {
        // Given a response fresh for 60 s
        let time = ManualTime()
        let (cache, server) = Self.cache([Self.ok(["Cache-Control": "max-age=60"])], time: time)
        let first = try await cache.dispatch(.get(Self.url))
        // When it is asked for again 59 s later
        time.advance(59)
        let second = try await cache.dispatch(.get(Self.url))
        // Then the store answers, and the server saw one request
        #expect(first.cacheStatus == .network)
        #expect(second.cacheStatus == .hit && second.isFromCache)
        #expect(second.text == "stored" && second.headers["Age"] == "59")
        #expect(server.receivedRequests.count == 1)
        // And once stale, the server is asked again
        time.advance(2)
        #expect(try await cache.dispatch(.get(Self.url)).cacheStatus == .network)
        #expect(server.receivedRequests.count == 2)
    }

    @Test func revalidatesWithTheETagAndAnswersA304WithTheStoredBodyAndUpdatedHeaders() async throws {
        // Given a response that must be revalidated, then a 304 with a new header
        let time = ManualTime()
        let (cache, server) = Self.cache(
            [
                Self.ok(["ETag": "\"v1\"", "Cache-Control": "max-age=0", "X-Version": "1"]),
                .status(304, headers: ["ETag": "\"v1\"", "X-Version": "2", "Content-Length": "0"]),
            ], time: time)
        _ = try await cache.dispatch(.get(Self.url))
        // When it is asked for again
        let second = try await cache.dispatch(.get(Self.url))
        // Then the request was conditional, and the 304 became the stored 200 with new headers
        #expect(server.receivedRequests.last?.headers["If-None-Match"] == "\"v1\"")
        #expect(second.statusCode == 200 && second.text == "stored")
        #expect(second.cacheStatus == .revalidated)
        #expect(second.headers["X-Version"] == "2")
        #expect(second.headers.values(for: "X-Version").count == 1)
    }

    @Test func revalidatesWithLastModified() async throws {
        // Given a stale response with only a Last-Modified
        let time = ManualTime()
        let modified = "Sun, 06 Nov 1994 08:49:37 GMT"
        let (cache, server) = Self.cache(
            [Self.ok(["Last-Modified": modified, "Cache-Control": "no-cache"]), .status(304)], time: time)
        _ = try await cache.dispatch(.get(Self.url))
        // When asked again
        let second = try await cache.dispatch(.get(Self.url))
        // Then If-Modified-Since carried it, and the stored body answered
        #expect(server.receivedRequests.last?.headers["If-Modified-Since"] == modified)
        #expect(second.cacheStatus == .revalidated && second.text == "stored")
    }

    @Test func noCacheAlwaysRevalidatesEvenWhenFresh() async throws {
        // Given a response fresh for ten minutes but marked no-cache
        let time = ManualTime()
        let (cache, server) = Self.cache(
            [Self.ok(["Cache-Control": "no-cache, max-age=600", "ETag": "\"a\""]), .status(304)], time: time)
        _ = try await cache.dispatch(.get(Self.url))
        // When asked again at once
        let second = try await cache.dispatch(.get(Self.url))
        // Then it went to the server as a revalidation
        #expect(server.receivedRequests.count == 2)
        #expect(second.cacheStatus == .revalidated)
    }

    @Test func aRequestWithNoCacheOrMaxAgeZeroRevalidates() async throws {
        let time = ManualTime()
        let (cache, server) = Self.cache(
            [Self.ok(["Cache-Control": "max-age=600", "ETag": "\"a\""]), .status(304)], time: time)
        _ = try await cache.dispatch(.get(Self.url))
        _ = try await cache.dispatch(.get(Self.url).header("Cache-Control", "no-cache"))
        _ = try await cache.dispatch(.get(Self.url).header("Cache-Control", "max-age=0"))
        #expect(server.receivedRequests.count == 3)
        #expect(server.receivedRequests.last?.headers["If-None-Match"] == "\"a\"")
    }

    @Test func noStoreOnTheResponseOrTheRequestStoresNothing() async throws {
        // Given a response marked no-store, and a request marked no-store
        let time = ManualTime()
        let store = MemoryCacheStore()
        let (cache, server) = Self.cache(
            [Self.ok(["Cache-Control": "no-store, max-age=600"]), Self.ok(["Cache-Control": "max-age=600"])],
            time: time, store: store)
        // When each is sent
        _ = try await cache.dispatch(.get(Self.url))
        _ = try await cache.dispatch(.get(Self.url).header("Cache-Control", "no-store"))
        // Then nothing was stored
        #expect(store.byteCount == 0)
        #expect(server.receivedRequests.count == 2)
    }

    @Test func varyKeepsOneResponsePerNominatedHeaderValueAndVaryStarIsNeverStored() async throws {
        // Given a server that varies on Accept-Language
        let time = ManualTime()
        let server = InMemoryDispatcher()
        for language in ["en", "fr"] {
            server.stub(
                InMemoryDispatcher.Stub(
                    .get, Self.url, where: { $0.headers["Accept-Language"] == language },
                    responses: [
                        Self.ok(["Vary": "Accept-Language", "Cache-Control": "max-age=60"], body: language)
                    ]))
        }
        server.stub(
            .get, "https://api.test/star", response: Self.ok(["Vary": "*", "Cache-Control": "max-age=60"]))
        let cache = server.caching(now: time.now)
        // When each language is asked for twice, in turn
        var bodies: [String] = []
        for language in ["en", "fr", "en", "fr"] {
            bodies.append(try await cache.dispatch(.get(Self.url).header("Accept-Language", language)).text)
        }
        _ = try await cache.dispatch(.get("https://api.test/star"))
        let star = try await cache.dispatch(.get("https://api.test/star"))
        // Then each got its own, and only the first of each reached the server
        #expect(bodies == ["en", "fr", "en", "fr"])
        #expect(server.receivedRequests.filter { $0.path == Self.url }.count == 2)
        #expect(star.cacheStatus == .network)
    }

    @Test func aSuccessfulUnsafeRequestRemovesTheStoredResponseForItsURLAndLocation() async throws {
        // Given two stored responses
        let time = ManualTime()
        let server = InMemoryDispatcher()
        let other = "https://api.test/other"
        for path in [Self.url, other] {
            server.stub(.get, path, response: Self.ok(["Cache-Control": "max-age=600"]))
        }
        server.stub(.post, Self.url, response: .status(201, headers: ["Location": "/other"]))
        server.stub(.delete, Self.url, response: .status(500))
        let cache = server.caching(now: time.now)
        _ = try await cache.dispatch(.get(Self.url))
        _ = try await cache.dispatch(.get(other))
        // When a DELETE fails, the stored response stays
        _ = try await cache.dispatch(.delete(Self.url))
        #expect(try await cache.dispatch(.get(Self.url)).cacheStatus == .hit)
        // When a POST succeeds, its URL and its Location are removed
        _ = try await cache.dispatch(.post(Self.url))
        #expect(try await cache.dispatch(.get(Self.url)).cacheStatus == .network)
        #expect(try await cache.dispatch(.get(other)).cacheStatus == .network)
    }

    @Test func onlyIfCachedWithNothingStoredIsA504WithoutReachingTheServer() async throws {
        let (cache, server) = Self.cache([Self.ok(["Cache-Control": "max-age=600"])], time: ManualTime())
        let response = try await cache.dispatch(.get(Self.url).header("Cache-Control", "only-if-cached"))
        #expect(response.statusCode == 504)
        #expect(server.receivedRequests.isEmpty)
    }

    @Test func clearRemovesEverything() async throws {
        let time = ManualTime()
        let (cache, server) = Self.cache([Self.ok(["Cache-Control": "max-age=600"])], time: time)
        _ = try await cache.dispatch(.get(Self.url))
        cache.clear()
        #expect(try await cache.dispatch(.get(Self.url)).cacheStatus == .network)
        #expect(server.receivedRequests.count == 2)
    }

    @Test func aHeadRequestIsAnsweredByAStoredGetWithoutItsBody() async throws {
        let time = ManualTime()
        let (cache, server) = Self.cache([Self.ok(["Cache-Control": "max-age=600"])], time: time)
        _ = try await cache.dispatch(.get(Self.url))
        let head = try await cache.dispatch(.head(Self.url))
        #expect(head.cacheStatus == .hit && head.body.isEmpty && head.statusCode == 200)
        #expect(server.receivedRequests.count == 1)
    }
}

/// A wall-clock time that a test sets by hand.
final class ManualTime: Sendable {
    private let current: Locked<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        current = Locked(start)
    }

    var date: Date { current.withLock { $0 } }

    /// The closure a cache reads the time through.
    var now: @Sendable () -> Date { { self.date } }

    func advance(_ seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }
}

/// Counts the requests that reach the dispatcher it wraps.
struct CountingDispatcher: NetworkDispatcher {
    let base: any NetworkDispatcher
    private let requests = Locked<[RequestData]>([])

    init(_ base: any NetworkDispatcher) {
        self.base = base
    }

    var received: [RequestData] { requests.withLock { $0 } }
    var count: Int { received.count }

    func dispatch(
        request: RequestData, onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        requests.withLock { $0.append(request) }
        return base.dispatch(request: request, onSuccess: onSuccess, onError: onError)
    }
}
