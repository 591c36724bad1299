import ErrandFiles
import ErrandSync
import Foundation
import Testing

@testable import Errand
@testable import ErrandPolicies

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The disk cache's files: what killed writes left is deleted when the folder is opened and when
/// the store is emptied; an entry's size is checked before it is read; the digest key is made
/// once, kept private, shared by every store of the folder, and replaced when it is damaged.
@Suite struct DiskCacheStoreFileTests {
    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "errand-disk-\(UUID().uuidString)/entries")
    }

    static func exists(_ url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.path)
    }

    @Test func whatKilledWritesLeftIsDeletedWhenTheFolderIsOpenedAndWhenTheStoreIsEmptied() throws {
        // Given the temporary files of killed writes (named before process IDs were in the names,
        // and by a process that is gone), writes in progress in a running process (one just
        // begun, one abandoned long ago), and files that are not the store's
        let directory = Self.folder()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let entry = DiskCacheStore.fileName(for: "k")
        let running = getppid()
        func file(_ name: String) -> URL { directory.appending(path: name) }
        let killed = [
            file(".\(entry).\(UUID().uuidString).tmp"),
            file(".\(entry).\(UUID().uuidString)-\(pid_t.max).tmp"),
            file(".digest.key.\(UUID().uuidString)-\(pid_t.max).tmp"),
        ]
        let inProgress = file(".\(entry).\(UUID().uuidString)-\(running).tmp")
        let abandoned = file(".\(entry).\(UUID().uuidString)-\(running).tmp")
        let foreign = [file(".notes.tmp"), file(".notes.txt.\(UUID().uuidString).tmp"), file("notes.txt")]
        for url in killed + [inProgress, abandoned] + foreign { try Data("partial".utf8).write(to: url) }
        let opened = Date()
        try FileManager.default.setAttributes(
            [.modificationDate: opened.addingTimeInterval(-2 * PrivateFile.abandonedWriteAge)],
            ofItemAtPath: abandoned.path)

        // When a store opens the folder
        let store = DiskCacheStore(directory: directory, now: { opened })

        // Then the store's leftovers are gone, the write in progress and others' files stay
        for url in killed + [abandoned] { #expect(!Self.exists(url), "\(url.lastPathComponent)") }
        #expect(Self.exists(inProgress))
        for url in foreign { #expect(Self.exists(url), "\(url.lastPathComponent)") }

        // And when a write dies while the store is open, emptying the store deletes what it left
        let later = file(".\(entry).\(UUID().uuidString)-\(pid_t.max).tmp")
        try Data("partial".utf8).write(to: later)
        store.removeAll()
        #expect(!Self.exists(later))
    }

    /// Writes an entry for `key` with a body of `size` bytes, as a store with room for it would.
    static func writeEntry(_ key: String, size: Int, in directory: URL) -> URL {
        DiskCacheStore(directory: directory, byteLimit: .max).store(
            [CacheStoreTests.entry(key, size: size)], for: key)
        return directory.appending(path: DiskCacheStore.fileName(for: key))
    }

    @Test func anEntryOverTheLimitFoundWhenTheFolderIsOpenedIsDeletedUnread() throws {
        // Given a whole, valid entry bigger than a store's limit
        let directory = Self.folder()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let file = Self.writeEntry("k", size: 5_000, in: directory)

        // When a store with a smaller limit opens the folder and looks the key up
        let store = DiskCacheStore(directory: directory, byteLimit: 1_000)

        // Then the entry is a miss, and its file is gone
        #expect(store.responses(for: "k").isEmpty)
        #expect(!Self.exists(file))
        #expect(store.byteCount == 0)
    }

    @Test func anEntryThatGrewOverTheLimitAfterTheFolderWasReadIsDeletedUnread() throws {
        // Given a store that read its folder, holding a small entry
        let directory = Self.folder()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let store = DiskCacheStore(directory: directory, byteLimit: 1_000)
        store.store([CacheStoreTests.entry("k", size: 10)], for: "k")
        #expect(store.responses(for: "k").count == 1)

        // When another process puts a whole, valid entry over the limit in its place
        let file = Self.writeEntry("k", size: 5_000, in: directory)

        // Then the lookup is a miss that does not read it, and the file is gone
        #expect(store.responses(for: "k").isEmpty)
        #expect(!Self.exists(file))
    }

    @Test func aFIFOInPlaceOfAnEntryIsAMissWithoutWaiting() throws {
        // Given a store that read its folder, and a FIFO no one writes to where an entry was
        let directory = Self.folder()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let store = DiskCacheStore(directory: directory)
        store.store([CacheStoreTests.entry("k")], for: "k")
        let file = directory.appending(path: DiskCacheStore.fileName(for: "k"))
        try FileManager.default.removeItem(at: file)
        try #require(mkfifo(file.path, 0o600) == 0)

        // When the key is looked up, Then it is a miss at once, and the FIFO is gone
        #expect(store.responses(for: "k").isEmpty)
        #expect(!Self.exists(file))
    }

    @Test func theDigestKeyIsMadeOncePrivateAndSharedByEveryStoreOfTheFolder() throws {
        // Given a folder that does not exist yet
        let directory = Self.folder()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }

        // When eight stores open it at once
        let keys = Locked<[Data?]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let key = DiskCacheStore(directory: directory).secrets.key
            keys.withLock { $0.append(key) }
        }

        // Then one key was made, 32 bytes in a file only the owner can read, and all use it
        let file = directory.appending(path: DiskCacheStore.keyFileName)
        let stored = try Data(contentsOf: file)
        #expect(stored.count == 32)
        #expect(keys.withLock { $0 } == Array(repeating: stored, count: 8))
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        #expect(DiskCacheStore(directory: directory).secrets.key == stored)
    }

    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case missing, cutShort, tooLong, folderInItsPlace
        var testDescription: String { rawValue }
    }

    @Test(arguments: Damage.allCases) func aDamagedKeyIsReplacedAndEntriesForCredentialsThenMiss(
        _ damage: Damage
    )
        async throws
    {
        // Given an answer stored for a request with a password in its query
        let directory = Self.folder()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let server = InMemoryDispatcher()
        server.stub(
            .get, "https://api.test/me",
            response: .status(200, headers: ["Cache-Control": "max-age=600"], body: Data("me".utf8)))
        let request = RequestData.get("https://api.test/me").query("password", "hunter2")
        _ = try await server.caching(DiskCacheStore(directory: directory)).dispatch(request)
        #expect(
            try await server.caching(DiskCacheStore(directory: directory)).dispatch(request).cacheStatus
                == .hit)

        // When the key file is damaged
        let file = directory.appending(path: DiskCacheStore.keyFileName)
        let old = try Data(contentsOf: file)
        try FileManager.default.removeItem(at: file)
        switch damage {
        case .missing: break
        case .cutShort: try old.prefix(5).write(to: file)
        case .tooLong: try (old + old).write(to: file)
        case .folderInItsPlace:
            try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        }
        let store = DiskCacheStore(directory: directory)

        // Then the store has a new key, kept when it can be, and the stored answer misses
        #expect(store.secrets.key != old)
        #expect(store.secrets.key?.count == 32)
        if damage != .folderInItsPlace { #expect(try Data(contentsOf: file) == store.secrets.key) }
        #expect(try await server.caching(store).dispatch(request).cacheStatus == .network)
    }
}
