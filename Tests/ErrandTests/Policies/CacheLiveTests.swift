import Errand
import ErrandPolicies
import ErrandTestSupport
import Foundation
import Testing

/// The caching dispatcher over `URLSessionDispatcher` against httpbin, counting what reaches the
/// transport.
@Suite(.enabled(if: LiveServer.httpbinAvailable, LiveServer.skipReason))
struct CacheLiveTests {
    /// A cache over a counting transport to httpbin.
    static func stack(_ store: any CacheStore = MemoryCacheStore()) throws -> (
        CachingDispatcher, CountingDispatcher
    ) {
        let httpbin = try LiveServer.require(LiveServer.httpbin, "ERRAND_HTTPBIN_URL")
        let transport = CountingDispatcher(URLSessionDispatcher(baseURL: httpbin))
        return (transport.caching(store, baseURL: httpbin), transport)
    }

    @Test func anETagIsRevalidatedAndThe304AnsweredWithTheStoredBody() async throws {
        // Given /etag/{etag}, fetched once
        let (cache, transport) = try Self.stack()
        let etag = UUID().uuidString
        let first = try await cache.dispatch(.get("/etag/\(etag)"))
        // When fetched again
        let second = try await cache.dispatch(.get("/etag/\(etag)"))
        // Then the server answered a conditional request with 304, and the stored body came back
        #expect(first.statusCode == 200 && first.cacheStatus == .network)
        #expect(transport.count == 2)
        #expect(transport.received.last?.headers["If-None-Match"] == first.headers["ETag"])
        #expect(second.statusCode == 200 && second.cacheStatus == .revalidated)
        #expect(second.body == first.body && !second.body.isEmpty)
    }

    @Test func aResponseWithinMaxAgeIsAnsweredWithoutASecondRequest() async throws {
        let (cache, transport) = try Self.stack()
        let first = try await cache.dispatch(.get("/cache/60"))
        let second = try await cache.dispatch(.get("/cache/60"))
        #expect(first.cacheStatus == .network && second.cacheStatus == .hit)
        #expect(second.body == first.body)
        #expect(transport.count == 1)
    }

    @Test func noStoreIsNeverStored() async throws {
        let store = MemoryCacheStore()
        let (cache, transport) = try Self.stack(store)
        for _ in 0..<2 {
            _ = try await cache.dispatch(.get("/response-headers").query("Cache-Control", "no-store"))
        }
        #expect(transport.count == 2)
        #expect(store.byteCount == 0)
    }

    @Test func noCacheIsRevalidatedEveryTime() async throws {
        let (cache, transport) = try Self.stack()
        let request = RequestData.get("/response-headers").query("Cache-Control", "no-cache").query(
            "ETag", "\"v\"")
        _ = try await cache.dispatch(request)
        _ = try await cache.dispatch(request)
        #expect(transport.count == 2)
        #expect(transport.received.last?.headers["If-None-Match"] == "\"v\"")
    }

    @Test func varyKeepsTwoLanguagesApart() async throws {
        let (cache, transport) = try Self.stack()
        let request = RequestData.get("/response-headers").query("Vary", "Accept-Language")
            .query("Cache-Control", "max-age=60")
        var statuses: [NetworkResponse.CacheStatus] = []
        for language in ["en", "fr", "en", "fr"] {
            statuses.append(try await cache.dispatch(request.header("Accept-Language", language)).cacheStatus)
        }
        #expect(statuses == [.network, .network, .hit, .hit])
        #expect(transport.count == 2)
    }

    @Test func aPostToTheURLInvalidatesItsGet() async throws {
        // httpbin's /response-headers answers POST too, so the GET can be cacheable.
        let (cache, transport) = try Self.stack()
        let get = RequestData.get("/response-headers").query("Cache-Control", "max-age=60")
        _ = try await cache.dispatch(get)
        #expect(try await cache.dispatch(get).cacheStatus == .hit)
        var post = get
        post.method = .post
        _ = try await cache.dispatch(post)
        #expect(try await cache.dispatch(get).cacheStatus == .network)
        #expect(transport.count == 3)
    }

    @Test func clearEmptiesTheCache() async throws {
        let (cache, transport) = try Self.stack()
        _ = try await cache.dispatch(.get("/cache/60"))
        cache.clear()
        #expect(try await cache.dispatch(.get("/cache/60")).cacheStatus == .network)
        #expect(transport.count == 2)
    }

    @Test func theDiskStoreSurvivesANewDispatcherAndACorruptEntryFile() async throws {
        // Given a response stored on disk by one dispatcher
        let directory = FileManager.default.temporaryDirectory.appending(
            path: "errand-live-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (first, _) = try Self.stack(DiskCacheStore(directory: directory))
        _ = try await first.dispatch(.get("/cache/60"))
        // When a new dispatcher with a new store opens the folder
        let (second, secondTransport) = try Self.stack(DiskCacheStore(directory: directory))
        // Then it answers from the file
        #expect(try await second.dispatch(.get("/cache/60")).cacheStatus == .hit)
        #expect(secondTransport.count == 0)
        // And when the file is corrupted, the next one goes to the server instead of failing
        let files = try FileManager.default.contentsOfDirectory(
            at: directory, includingPropertiesForKeys: nil
        ).filter { $0.pathExtension == "cacheentry" }
        #expect(files.count == 1)
        for file in files { try Data("not json".utf8).write(to: file) }
        let (third, thirdTransport) = try Self.stack(DiskCacheStore(directory: directory))
        let response = try await third.dispatch(.get("/cache/60"))
        #expect(response.statusCode == 200 && response.cacheStatus == .network)
        #expect(thirdTransport.count == 1)
    }
}
