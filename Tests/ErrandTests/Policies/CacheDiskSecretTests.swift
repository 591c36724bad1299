import Foundation
import Testing

@testable import Errand
@testable import ErrandPolicies

/// What a disk cache writes holds no credential and no plain digest of one: response fields that
/// hand out a credential are not stored, URL user info is neither written nor kept in the stored
/// URL, and credentials stand in the files as digests keyed with the store's own random key, so
/// that whoever reads the folder cannot test guesses against them.
@Suite struct CacheDiskSecretTests {
    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "errand-disk-secrets-\(UUID().uuidString)")
    }

    /// The names of the entry files under `folder`, and every byte of every file there as text.
    static func written(under folder: URL) throws -> (names: Set<String>, text: String) {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let text = try names.map {
            String(decoding: try Data(contentsOf: folder.appending(path: $0)), as: UTF8.self)
        }
        return (Set(names.filter { $0.hasSuffix(".cacheentry") }), text.joined(separator: "\n"))
    }

    /// The plain SHA-256 of `value` in hexadecimal: what stood in for a credential before.
    static func plainDigest(_ value: String) -> String {
        SHA256.hash(Data(value.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    static let handedOut: [(name: String, value: String)] = [
        ("X-Auth-Token", "token-1"), ("Set-Cookie", "sid=cookie-2; HttpOnly"), ("X-API-Key", "key-3"),
        ("Access-Token", "access-4"), ("Set-Cookie2", "legacy=cookie-5"), ("Authorization", "Bearer echo-6"),
    ]

    @Test(arguments: [true, false]) func fieldsThatHandOutACredentialAreNotStored(onDisk: Bool) async throws {
        // Given a cacheable answer that hands out credentials in its header fields
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var headers: HTTPHeaders = [
            "Cache-Control": "max-age=600", "ETag": "\"e1\"", "Content-Type": "text/plain",
        ]
        for field in Self.handedOut { headers.add(field.name, field.value) }
        let server = InMemoryDispatcher()
        server.stub(
            .get, "https://api.test/session", response: .status(200, headers: headers, body: Data("ok".utf8)))
        let store: any CacheStore = onDisk ? DiskCacheStore(directory: folder) : MemoryCacheStore()
        let cache = server.caching(store)

        // When it is fetched, then answered from the store
        let first = try await cache.dispatch(.get("https://api.test/session"))
        let stored = try await cache.dispatch(.get("https://api.test/session"))

        // Then the first answer had them; the stored one has the rest of the fields but none of them
        #expect(first.headers["X-Auth-Token"] == "token-1")
        #expect(stored.cacheStatus == .hit)
        #expect(stored.headers["ETag"] == "\"e1\"")
        for field in Self.handedOut { #expect(stored.headers[field.name] == nil, "\(field.name)") }
        if onDisk {
            let text = try Self.written(under: folder).text
            for field in Self.handedOut { #expect(!text.contains(field.value), "\(field.name) was written") }
        }
    }

    @Test func credentialsStandAsDigestsKeyedPerStoreNeverAsPlainSHA256() async throws {
        // Given two disk caches, and one request with a password in its query and Basic
        // credentials that the answer's Vary names
        let folders = [Self.folder(), Self.folder()]
        defer { for folder in folders { try? FileManager.default.removeItem(at: folder) } }
        let server = InMemoryDispatcher()
        server.stub(
            .get, "https://api.test/me",
            response: .status(
                200, headers: ["Cache-Control": "public, max-age=600", "Vary": "Authorization"],
                body: Data("me".utf8)))
        let basic = "Basic " + Data("ada:pw-basic-7".utf8).base64EncodedString()
        let request = RequestData.get("https://api.test/me").query("password", "hunter2")
            .header("Authorization", basic)

        // When each cache fetches it twice
        for folder in folders {
            let cache = server.caching(DiskCacheStore(directory: folder))
            _ = try await cache.dispatch(request)
            #expect(try await cache.dispatch(request).cacheStatus == .hit)
        }

        // Then the two stores name the entry differently, and neither holds the credentials, nor
        // their plain digests, nor the request identity's plain digest
        let written = try folders.map(Self.written(under:))
        #expect(written[0].names.count == 1 && written[1].names.count == 1)
        #expect(written[0].names != written[1].names)
        let identity = RequestIdentity(request).key
        for text in written.map(\.text) {
            #expect(text.contains("hmac-sha256:"))
            for secret in ["hunter2", "pw-basic-7", basic] { #expect(!text.contains(secret), "\(secret)") }
            for value in ["hunter2", basic] {
                #expect(!text.contains(Self.plainDigest(value)), "digest of \(value)")
            }
            #expect(!text.contains(identity.dropFirst("sha256:".count)))
        }
    }

    @Test func userInfoIsNeitherWrittenNorStoredYetTellsCredentialsApart() async throws {
        // Given a disk cache, and a request that authenticates with user info in its URL
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = InMemoryDispatcher()
        server.stub(
            .get, "/users/42",
            response: .status(200, headers: ["Cache-Control": "max-age=600"], body: Data("user".utf8)))
        let cache = server.caching(DiskCacheStore(directory: folder))
        let request = RequestData.get("https://ada:S3cretPw9@api.test/users/42")

        // When it is fetched twice, and once with another password
        _ = try await cache.dispatch(request)
        let stored = try await cache.dispatch(request)
        let other = try await cache.dispatch(.get("https://ada:0therPw@api.test/users/42"))

        // Then the second came from the store without the password in its URL, the other
        // password missed, and no file holds the user info
        #expect(stored.cacheStatus == .hit)
        #expect(stored.url?.password == nil && stored.url?.user == nil)
        #expect(stored.url?.host == "api.test" && stored.url?.path == "/users/42")
        #expect(other.cacheStatus == .network)
        let text = try Self.written(under: folder).text
        for secret in ["S3cretPw9", "0therPw", "ada:", "ada%3A"] {
            #expect(!text.contains(secret), "\(secret)")
        }
    }

    @Test func aRelativeLocationAfterAWriteWithUserInfoRemovesWhatItNames() async throws {
        // Given a stored answer to a URL with user info
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = InMemoryDispatcher()
        server.stub(
            .get, "/items/1",
            response: .status(200, headers: ["Cache-Control": "max-age=600"], body: Data("1".utf8)))
        server.stub(.post, "/items", response: .status(201, headers: ["Location": "/items/1"]))
        let cache = server.caching(DiskCacheStore(directory: folder))
        let read = RequestData.get("https://ada:S3cretPw9@api.test/items/1")
        _ = try await cache.dispatch(read)
        #expect(try await cache.dispatch(read).cacheStatus == .hit)

        // When a POST with the same user info answers with a relative Location naming it
        _ = try await cache.dispatch(.post("https://ada:S3cretPw9@api.test/items"))

        // Then the stored answer is gone
        #expect(try await cache.dispatch(read).cacheStatus == .network)
    }

    @Test func theStoredURLHasItsSecretQueryValuesRedacted() {
        // Given an answering URL with user info and a secret query value
        let url = URL(string: "https://ada:S3cretPw9@api.test/files/1?api_key=K-123&page=2")

        // When it is stored, Then neither secret is kept, and the rest is
        let stored = CacheSecrets.url(url)?.absoluteString ?? ""
        #expect(!stored.contains("S3cretPw9") && !stored.contains("ada") && !stored.contains("K-123"))
        #expect(stored.hasPrefix("https://api.test/files/1?api_key=") && stored.hasSuffix("&page=2"))
    }
}
