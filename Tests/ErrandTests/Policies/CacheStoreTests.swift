import Foundation
import Testing

@testable import Errand
@testable import ErrandPolicies

/// The in-memory and on-disk stores: byte limits, least-recently-used eviction, files.
@Suite struct CacheStoreTests {
    /// An entry for `key` with a body of `size` bytes.
    static func entry(_ key: String, size: Int = 100) -> CachedResponse {
        let time = Date(timeIntervalSince1970: 1_700_000_000)
        return CachedResponse(
            key: key, request: .get(key), identity: .anonymous,
            response: NetworkResponse(statusCode: 200, body: Data(repeating: 65, count: size)),
            requestTime: time, responseTime: time)
    }

    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "errand-cache-\(UUID().uuidString)/entries")
    }

    @Test func theMemoryStoreEvictsTheLeastRecentlyUsedAtItsByteLimit() {
        // Given room for two entries
        let size = Self.entry("a").byteCount
        let store = MemoryCacheStore(byteLimit: size * 2 + size / 2)
        store.store([Self.entry("a")], for: "a")
        store.store([Self.entry("b")], for: "b")
        // When "a" is read, then a third entry comes
        _ = store.responses(for: "a")
        store.store([Self.entry("c")], for: "c")
        // Then "b", the least recently used, went
        #expect(store.keys == ["a", "c"])
        #expect(store.responses(for: "b").isEmpty)
        #expect(store.byteCount == size * 2)
    }

    @Test func theMemoryStoreRefusesAnEntryOverItsLimitAndReplacesByKey() {
        let store = MemoryCacheStore(byteLimit: 500)
        store.store([Self.entry("big", size: 1000)], for: "big")
        #expect(store.responses(for: "big").isEmpty && store.byteCount == 0)
        store.store([Self.entry("a")], for: "a")
        store.store([Self.entry("a", size: 50)], for: "a")
        #expect(store.byteCount == Self.entry("a", size: 50).byteCount)
        store.removeAll()
        #expect(store.keys.isEmpty && store.byteCount == 0)
    }

    @Test func theDiskStoreSurvivesANewInstanceInAPrivateFolder() throws {
        // Given an entry written by one store
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        DiskCacheStore(directory: directory).store([Self.entry("https://a.test/x")], for: "https://a.test/x")
        // When another store opens the folder
        let reopened = DiskCacheStore(directory: directory)
        // Then it reads the entry back, and folder and file are private
        #expect(reopened.responses(for: "https://a.test/x") == [Self.entry("https://a.test/x")])
        let folder = try FileManager.default.attributesOfItem(atPath: directory.path)
        #expect((folder[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        let file = directory.appending(path: DiskCacheStore.fileName(for: "https://a.test/x"))
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func theDiskStoreDropsAnEntryFileThatCannotBeRead() throws {
        // Given an entry whose file was then corrupted
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        DiskCacheStore(directory: directory).store([Self.entry("k")], for: "k")
        let file = directory.appending(path: DiskCacheStore.fileName(for: "k"))
        try Data("{\"key\": \"k\", \"responses\": [tru".utf8).write(to: file)
        // When a new store reads it
        let store = DiskCacheStore(directory: directory)
        // Then it is a miss and the file is gone
        #expect(store.responses(for: "k").isEmpty)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(store.byteCount == 0)
    }

    @Test func theDiskStoreEvictsTheLeastRecentlyUsedFilesAtItsByteLimit() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let time = ManualTime()
        let probe = DiskCacheStore(directory: Self.temporaryDirectory())
        probe.store([Self.entry("a", size: 1000)], for: "a")
        let fileSize = probe.byteCount
        try? FileManager.default.removeItem(at: probe.directory.deletingLastPathComponent())
        // Given room for two files
        let store = DiskCacheStore(
            directory: directory, byteLimit: fileSize * 2 + fileSize / 2, now: time.now)
        for key in ["a", "b"] {
            store.store([Self.entry(key, size: 1000)], for: key)
            time.advance(1)
        }
        _ = store.responses(for: "a")
        time.advance(1)
        // When a third comes
        store.store([Self.entry("c", size: 1000)], for: "c")
        // Then "b" went
        #expect(store.responses(for: "b").isEmpty)
        #expect(store.responses(for: "a").count == 1 && store.responses(for: "c").count == 1)
        store.removeAll()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["digest.key"])
    }
}
