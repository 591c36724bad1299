import Errand
import ErrandPolicies
import ErrandTestSupport
import Foundation
import Testing

/// Secret query values never reach a cache store in clear, wherever the query was written, and
/// the digested keys still tell credentials apart and still find what a `Location` names.
@Suite struct CacheKeySecretTests {
    static let fresh = InMemoryDispatcher.Response.status(
        200, headers: ["Cache-Control": "max-age=600"], body: Data("stored".utf8))

    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "errand-cache-keys-\(UUID().uuidString)")
    }

    /// Every byte of every file under `folder`, as one string.
    static func written(under folder: URL) throws -> String {
        let files =
            FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL } ?? []
        return try files.filter { !$0.hasDirectoryPath }
            .map { String(decoding: try Data(contentsOf: $0), as: UTF8.self) }
            .joined(separator: "\n")
    }

    @Test func secretsInAPathQueryABaseURLOrQueryItemsAreNotWrittenYetStillMatch() async throws {
        // Given a disk cache, and requests that carry secrets in each place a query can come from
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = InMemoryDispatcher()
        for path in ["https://api.test/a", "/items", "https://api.test/c"] {
            server.stub(.get, path, response: Self.fresh)
        }
        let store = DiskCacheStore(directory: folder)
        let plain = server.caching(store)
        let based = server.caching(store, baseURL: URL(string: "https://api.test/v1?api_key=base-secret-2"))
        let inPath = RequestData.get("https://api.test/a?access_token=path-secret-1")
        let inItems = RequestData.get("https://api.test/c").query("token", "item-secret-3")

        // When each is fetched twice
        for _ in 0..<2 {
            _ = try await plain.dispatch(inPath)
            _ = try await based.dispatch(.get("/items"))
            _ = try await plain.dispatch(inItems)
        }

        // Then the second time came from the store, and no file holds a secret
        #expect(server.receivedRequests.count == 3)
        let written = try Self.written(under: folder)
        #expect(written.contains("sha256:"))
        for secret in ["path-secret-1", "base-secret-2", "item-secret-3"] {
            #expect(!written.contains(secret), "\(secret) was written")
        }

        // And another credential is another entry
        let other = try await plain.dispatch(.get("https://api.test/a?access_token=path-secret-9"))
        #expect(other.cacheStatus == .network)
    }

    @Test func aKeyQueryItemAndUserInfoAreNotWrittenYetTellUsersApart() async throws {
        // Given a disk cache, and reads whose credential is a `key` query item or URL user info
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = InMemoryDispatcher()
        server.stub(.get, "https://api.test/maps", response: Self.fresh)
        let cache = server.caching(DiskCacheStore(directory: folder))

        // When each is fetched twice
        for _ in 0..<2 {
            _ = try await cache.dispatch(.get("https://api.test/maps?key=AIzaKey-secret-4"))
            _ = try await cache.dispatch(.get("https://ada:userinfo-secret-5@api.test/maps"))
        }

        // Then the second reads came from the store, and no file holds either secret
        #expect(server.receivedRequests.count == 2)
        let written = try Self.written(under: folder)
        for secret in ["AIzaKey-secret-4", "userinfo-secret-5"] {
            #expect(!written.contains(secret), "\(secret) was written")
        }
        // And another key is another entry
        let other = try await cache.dispatch(.get("https://api.test/maps?key=AIzaKey-secret-6"))
        #expect(other.cacheStatus == .network)
    }

    @Test func aLocationWithASecretQueryInvalidatesTheEntryItNames() async throws {
        // Given a stored answer to a URL with a token in its query
        let server = InMemoryDispatcher()
        server.stub(.get, "https://api.test/items", response: Self.fresh)
        server.stub(
            .post, "https://api.test/items",
            response: .status(201, headers: ["Location": "/items?access_token=secret-a"]))
        let cache = server.caching()
        let read = RequestData.get("https://api.test/items").query("access_token", "secret-a")
        _ = try await cache.dispatch(read)
        #expect(try await cache.dispatch(read).cacheStatus == .hit)

        // When a POST answers with a Location naming that URL
        _ = try await cache.dispatch(.post("https://api.test/items"))

        // Then the stored answer is gone
        #expect(try await cache.dispatch(read).cacheStatus == .network)
    }
}
