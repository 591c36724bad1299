import Errand
import ErrandFiles
import ErrandSync
import Foundation

/// A ``CacheStore`` in a folder, one file per cache key, bounded in bytes, surviving restarts.
///
/// - The folder, and any folder above it that is missing, is created readable by its owner only
///   (mode 0700), and each file is written with mode 0600, whatever the process's umask, to a
///   temporary name and renamed into place, so a crash mid-write leaves the previous file whole.
/// - No credential is written: the cache keys and stored `Vary` values carry a keyed digest
///   (HMAC-SHA256) in place of secret query values, URL user info and the values of
///   `Authorization`, `Cookie` and the like; entries name their request identity the same way;
///   stored URLs have secrets redacted; and response fields that hand out a credential
///   (`Set-Cookie`, `X-Auth-Token`, …) are not stored (see `CachingDispatcher`). The key is 32
///   random bytes, made when the folder has none and kept in it (`digest.key`, mode 0600), so
///   entries read without it (copied, backed up, attached to a report) cannot be used to test
///   guesses of a password, and two stores give the same credential different digests. A
///   missing or damaged key file means a new key: entries stored for credentials then miss. Response bodies
///   are stored as they came.
/// - A file is named by a 64-bit FNV-1a hash of its key, and holds the key itself, so two keys
///   that hash alike never answer for each other (the newer simply replaces the older).
/// - A file's size is checked before it is read: one over the byte limit is deleted unread. A
///   file that cannot be read or decoded (truncated, corrupt, from another version) is deleted
///   and counts as a miss: never an error, never a crash.
/// - Over the byte limit, the least recently used files go first: used in this process, or by
///   modification time for files found when the store was opened.
/// - Temporary files that a process killed mid-write left behind are deleted when a store
///   opens the folder and when it is emptied.
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

    /// How the store's credentials are digested: with the key kept in its folder.
    let secrets: CacheSecrets

    static let fileExtension = "cacheentry"

    /// Creates a store in `directory`, which is created when it is missing.
    ///
    /// The folder's digest key is read (or made), and temporary files that interrupted writes
    /// left are deleted.
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
        try? PrivateFile.createFolder(directory)
        PrivateFile.removeLeftovers(in: directory, now: now(), of: Self.isStoreFile)
        self.secrets = CacheSecrets(key: Self.digestKey(in: directory))
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
            // A file over the limit is refused unread: it could be of any size.
            guard let data = try? PrivateFile.read(url, limit: byteLimit),
                let file = try? JSONDecoder().decode(File.self, from: data),
                file.key == key
            else {
                // Too large, corrupt, or another key with the same hash: drop it.
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
            var total = index.values.reduce(0) { $0.addingSaturated($1.byteCount) }
            while total + data.count > byteLimit,
                let oldest = index.min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                try? FileManager.default.removeItem(at: directory.appending(path: oldest.key))
                index[oldest.key] = nil
                total -= oldest.value.byteCount
            }
            // The folder's leftovers were swept when it was opened: no need to list it again.
            guard (try? PrivateFile.write(data, to: url, removingLeftovers: false)) != nil else {
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

    /// Removes every file of the store, and the temporary files of interrupted writes (other
    /// files in the folder, and the digest key, are left alone); what a ``CachingDispatcher``'s
    /// misses in flight fetch is not stored.
    public func removeAll() {
        withIndex { index in
            for name in index.keys {
                try? FileManager.default.removeItem(at: directory.appending(path: name))
            }
            PrivateFile.removeLeftovers(in: directory, now: now(), of: Self.isStoreFile)
            index = [:]
            clears.withLock { $0 &+= 1 }
        }
    }

    /// The bytes the files take now.
    public var byteCount: Int {
        withIndex { index in index.values.reduce(0) { $0.addingSaturated($1.byteCount) } }
    }

    /// Runs `body` on the index, reading the folder first when it has not been read.
    private func withIndex<Result>(_ body: (inout [String: Entry]) -> Result) -> Result {
        index.withLock { stored in
            var index = stored ?? scanDirectory()
            defer { stored = index }
            return body(&index)
        }
    }

    /// The entry files already in the folder; those over the byte limit are deleted unread.
    private func scanDirectory() -> [String: Entry] {
        let manager = FileManager.default
        try? PrivateFile.createFolder(directory)
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        let urls = (try? manager.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys)) ?? []
        var index: [String: Entry] = [:]
        for url in urls where url.pathExtension == Self.fileExtension {
            let values = try? url.resourceValues(forKeys: Set(keys))
            let size = values?.fileSize ?? 0
            guard size <= byteLimit else {
                try? manager.removeItem(at: url)
                continue
            }
            index[url.lastPathComponent] = Entry(
                byteCount: size, lastUse: values?.contentModificationDate ?? .distantPast)
        }
        return index
    }

    /// Whether `name` is one of the store's own files: an entry, or the digest key.
    static func isStoreFile(_ name: String) -> Bool {
        name.hasSuffix("." + fileExtension) || name == keyFileName
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
