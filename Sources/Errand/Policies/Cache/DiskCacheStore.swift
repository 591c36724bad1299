import ErrandSync
import Foundation

/// A ``CacheStore`` in a folder, one file per cache key, bounded in bytes, surviving restarts.
///
/// - The folder is created readable by its owner only (mode 0700), and each file is written
///   with mode 0600, to a temporary name and renamed into place, so a crash mid-write leaves the
///   previous file whole.
/// - No credential is written: the cache keys and stored URLs carry a SHA-256 digest in place
///   of secret query values, stored `Vary` values of `Authorization`, `Cookie` and the like are
///   digests, and `Set-Cookie` is not stored (see `CachingDispatcher`). Response bodies are
///   stored as they came.
/// - A file is named by a 64-bit FNV-1a hash of its key, and holds the key itself, so two keys
///   that hash alike never answer for each other (the newer simply replaces the older).
/// - A file that cannot be read or decoded (truncated, corrupt, from another version) is deleted
///   and counts as a miss: never an error, never a crash.
/// - Over the byte limit, the least recently used files go first: used in this process, or by
///   modification time for files found when the store was opened.
/// - Temporary files that a process killed mid-write left behind are deleted when the store
///   first reads its folder, once they are ten minutes old.
///
/// Write failures (a full disk) leave the response unstored and are otherwise silent: a cache
/// that cannot keep something is still correct. `Sendable`: its index is behind a lock, and
/// every file operation happens while holding it.
public final class DiskCacheStore: CacheStore, ClearCountingCacheStore {
    private struct Entry {
        var byteCount: Int
        var lastUse: Date
    }

    /// The folder the files are in.
    public let directory: URL
    /// The most bytes the files may take together.
    public let byteLimit: Int
    private let now: @Sendable () -> Date
    /// File name to size and last use; `nil` until the folder is first read.
    private let index = Locked<[String: Entry]?>(nil)
    /// How many times ``removeAll()`` ran; changed and read only under the index's lock.
    private let clears = Locked<UInt64>(0)

    static let fileExtension = "cacheentry"

    /// Creates a store in `directory`, which is created when it is missing.
    ///
    /// - Parameters:
    ///   - directory: The folder for the files; give each signed-in user or each purpose its own.
    ///   - byteLimit: The most bytes the files may take together; 50 MB by default.
    ///   - now: The time, for least-recently-used order.
    public init(directory: URL, byteLimit: Int = 50_000_000, now: @escaping @Sendable () -> Date = { Date() })
    {
        self.directory = directory
        self.byteLimit = byteLimit
        self.now = now
    }

    /// The responses stored under `key`; a file that cannot be read is deleted and counts as none.
    ///
    /// - Parameter key: The cache key.
    /// - Returns: The stored responses, most recently stored first.
    public func responses(for key: String) -> [CachedResponse] {
        let name = Self.fileName(for: key)
        return withIndex { index in
            guard index[name] != nil else { return [] }
            let url = directory.appending(path: name)
            guard let data = try? Data(contentsOf: url),
                let file = try? JSONDecoder().decode(File.self, from: data),
                file.key == key
            else {
                // A corrupt entry, or another key with the same hash: drop it.
                try? FileManager.default.removeItem(at: url)
                index[name] = nil
                return []
            }
            index[name]?.lastUse = now()
            return file.responses
        }
    }

    /// Replaces the file of `key`, deleting the least recently used files to make room.
    ///
    /// - Parameters:
    ///   - responses: The responses to keep; an empty list removes the key.
    ///   - key: The cache key.
    public func store(_ responses: [CachedResponse], for key: String) {
        put(responses, for: key, ifClearCountIs: nil)
    }

    func store(_ responses: [CachedResponse], for key: String, ifClearCountIs count: UInt64) {
        put(responses, for: key, ifClearCountIs: count)
    }

    var clearCount: UInt64 { clears.withLock { $0 } }

    private func put(_ responses: [CachedResponse], for key: String, ifClearCountIs count: UInt64?) {
        let name = Self.fileName(for: key)
        let data = responses.isEmpty ? nil : try? JSONEncoder().encode(File(key: key, responses: responses))
        withIndex { index in
            if let count, count != clearCount { return }
            let url = directory.appending(path: name)
            // The new file is renamed over the old one: deleting the old one first would leave
            // no file at all if the process died in between.
            guard let data, data.count <= byteLimit else {
                if index.removeValue(forKey: name) != nil { try? FileManager.default.removeItem(at: url) }
                return
            }
            index[name] = nil
            var total = index.values.reduce(0) { $0 + $1.byteCount }
            while total + data.count > byteLimit,
                let oldest = index.min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                try? FileManager.default.removeItem(at: directory.appending(path: oldest.key))
                index[oldest.key] = nil
                total -= oldest.value.byteCount
            }
            guard (try? PrivateFile.write(data, to: url)) != nil else {
                try? FileManager.default.removeItem(at: url)
                return
            }
            index[name] = Entry(byteCount: data.count, lastUse: now())
        }
    }

    /// Removes the file of `key`.
    ///
    /// - Parameter key: The cache key.
    public func removeResponses(for key: String) {
        store([], for: key)
    }

    /// Removes every file of the store (other files in the folder are left alone); what a
    /// ``CachingDispatcher``'s misses in flight fetch is not stored.
    public func removeAll() {
        withIndex { index in
            for name in index.keys {
                try? FileManager.default.removeItem(at: directory.appending(path: name))
            }
            index = [:]
            clears.withLock { $0 &+= 1 }
        }
    }

    /// The bytes the files take now.
    public var byteCount: Int {
        withIndex { index in index.values.reduce(0) { $0 + $1.byteCount } }
    }

    /// Runs `body` on the index, reading the folder first when it has not been read.
    private func withIndex<Result>(_ body: (inout [String: Entry]) -> Result) -> Result {
        index.withLock { stored in
            var index = stored ?? scanDirectory()
            defer { stored = index }
            return body(&index)
        }
    }

    /// The files already in the folder, creating it (mode 0700) when it is missing.
    private func scanDirectory() -> [String: Entry] {
        let manager = FileManager.default
        try? manager.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        let urls = (try? manager.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys)) ?? []
        var index: [String: Entry] = [:]
        let staleBefore = now().addingTimeInterval(-Self.abandonedWriteAge)
        for url in urls {
            let values = try? url.resourceValues(forKeys: Set(keys))
            let modified = values?.contentModificationDate ?? .distantPast
            if url.pathExtension == Self.fileExtension {
                index[url.lastPathComponent] = Entry(byteCount: values?.fileSize ?? 0, lastUse: modified)
            } else if Self.isTemporaryEntry(url.lastPathComponent), modified < staleBefore {
                // Left by a process that died mid-write; a younger one may still be renamed.
                try? manager.removeItem(at: url)
            }
        }
        return index
    }

    /// How old, in seconds, a temporary file must be before it counts as abandoned.
    static let abandonedWriteAge: TimeInterval = 600

    /// Whether `name` is one of this store's files being written (`.<entry>.<UUID>.tmp`).
    static func isTemporaryEntry(_ name: String) -> Bool {
        name.hasPrefix(".") && name.hasSuffix(".tmp") && name.contains(".\(fileExtension).")
    }

    /// The file name for `key`: its FNV-1a hash in hexadecimal.
    static func fileName(for key: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + "." + fileExtension
    }

    /// What a file holds: the key, to tell hash collisions apart, and its responses.
    private struct File: Codable {
        let key: String
        let responses: [CachedResponse]
    }
}
