import Errand
import ErrandFiles
import ErrandSync
import Foundation

/// Token storage in a JSON file readable by its owner only (mode 0600), on Linux and Apple.
///
/// Writes go to a temporary file created with mode 0600 in the same folder, which is then
/// renamed over the old one, so a crash mid-write leaves the previous tokens intact and the
/// secret is never readable by others, not even for a moment. Missing folders are created with
/// mode 0700, so no other user can replace the file; folders already there are left as they are.
/// Both modes hold whatever the process's umask. The temporary file of a write that a crash
/// cut short holds the new pair: it is deleted by the next write, by ``clear()``, and when a
/// storage of the file is made, so a refresh token does not outlive a sign-out. The file's size
/// is checked before it is read: one over 1 MiB is refused unread, as a file that does not hold
/// valid tokens.
/// `expiresAt` is stored with full precision, so a pair reads back equal to the one written.
///
/// Every storage made for one file in a process shares one session: two API clients each given
/// a `FileTokenStorage(url:)` of the same file share the refresh in flight, and a sign-out
/// through either is seen by both. Every ``write(_:)`` and ``clear()`` starts a new session;
/// ``replace(_:with:)`` is atomic with both. (Another process writing the same file is not seen
/// until this one reads the file again at its next launch.)
///
/// A file that cannot be read, or that does not hold valid tokens, throws a `NetworkError` with
/// code `tokenStorage` whose message names the file and the problem. The auth policy hands it on
/// to the request; the app recovers by calling ``clear()`` and signing the user in again.
public final class FileTokenStorage: TokenStorage, LedgerKeepingTokenStorage {
    /// The file the tokens live in.
    public let url: URL
    private let file: TokenFile

    /// Creates a storage backed by the file at `url`, deleting what interrupted writes left.
    public init(url: URL) {
        self.url = url
        self.file = TokenFile.shared(for: url)
        PrivateFile.removeLeftovers(of: URL(fileURLWithPath: file.path))
    }

    var ledger: TokenLedger { file.ledger }

    /// The stored pair, read from the file once and then from memory.
    ///
    /// - Throws: `NetworkError` with code `tokenStorage` when the file exists but cannot be read
    ///   or does not hold valid tokens.
    public func read() async throws -> TokenPair? {
        try file.withPair { $0 }
    }

    /// Writes the pair to the file atomically, with mode 0600, as a new session.
    ///
    /// - Throws: `NetworkError` with code `tokenStorage` when the file cannot be written.
    public func write(_ tokens: TokenPair) async throws {
        try file.change(to: tokens, newSession: true)
    }

    /// Deletes the file, and the temporary files of interrupted writes, ending the session.
    ///
    /// - Throws: `NetworkError` with code `tokenStorage` when the file cannot be deleted.
    public func clear() async throws {
        try file.change(to: nil, newSession: true)
    }

    /// Replaces the stored pair only if it is still `expected`, atomically.
    ///
    /// - Parameters:
    ///   - expected: The pair the change was computed from.
    ///   - replacement: The new pair, or `nil` to delete the file.
    /// - Returns: Whether the file held `expected` and was changed.
    /// - Throws: `NetworkError` with code `tokenStorage` when the file cannot be read or changed.
    public func replace(_ expected: TokenPair, with replacement: TokenPair?) async throws -> Bool {
        try await replace(expected, with: replacement, inSession: nil)
    }

    func replace(_ expected: TokenPair, with replacement: TokenPair?, inSession generation: UInt64?)
        async throws -> Bool
    {
        try file.withPair { current in
            guard current == expected, isIn(session: generation) else { return false }
            // A refresh continues the session; a clear ends it.
            try file.change(to: replacement, newSession: replacement == nil)
            return true
        }
    }
}

/// One token file as every ``FileTokenStorage`` of it in this process sees it: the pair as last
/// read or written, and the file's session ledger.
///
/// One lock is held across each read and change of the file, so a compare-and-set and a clear
/// never interleave. Recursive use (`change` inside `withPair`) goes through the same lock, so
/// it is a plain `NSRecursiveLock`, not `Locked`.
final class TokenFile: @unchecked Sendable {
    let path: String
    let ledger = TokenLedger(countsItsOwnChanges: true)
    // `@unchecked Sendable`: `pair` is read and written only while `lock` is held.
    private let lock = NSRecursiveLock()
    private var pair: TokenPair??

    private init(path: String) {
        self.path = path
    }

    /// Runs `body` with the stored pair (read from the file the first time), under the lock.
    func withPair<Result>(_ body: (TokenPair?) throws -> Result) throws -> Result {
        lock.lock()
        defer { lock.unlock() }
        if let pair { return try body(pair) }
        let tokens = try contents().map { data throws(NetworkError) in
            try TokenStorageCoding.decode(data, from: "the token file \(path)")
        }
        pair = .some(tokens)
        return try body(tokens)
    }

    /// Writes `tokens` (or deletes the file, for `nil`) and tells the ledger.
    func change(to tokens: TokenPair?, newSession: Bool) throws {
        lock.lock()
        defer { lock.unlock() }
        if let tokens {
            let data = try TokenStorageCoding.encode(tokens, to: "the token file \(path)")
            do {
                try PrivateFile.write(data, to: URL(fileURLWithPath: path))
            } catch {
                throw TokenStorageCoding.failure(
                    "the token file \(path) could not be written: \(error.reason)", cause: error)
            }
        } else {
            do {
                try PrivateFile.remove(URL(fileURLWithPath: path))
            } catch {
                throw TokenStorageCoding.failure(
                    "the token file \(path) could not be deleted: \(error.reason)", cause: error)
            }
        }
        pair = .some(tokens)
        if newSession { ledger.advance() } else { ledger.touch() }
    }

    /// The most bytes a token file may hold: a pair of even very large tokens fits many times.
    static let byteLimit = 1 << 20

    /// The file's bytes, or `nil` when there is no file; a file over ``byteLimit`` is not read.
    private func contents() throws(NetworkError) -> Data? {
        do {
            return try PrivateFile.read(URL(fileURLWithPath: path), limit: Self.byteLimit)
        } catch {
            throw TokenStorageCoding.failure(
                "the token file \(path) could not be read: \(error.reason)", cause: error)
        }
    }

    // MARK: One per file

    private static let files = Locked<[String: WeakFile]>([:])

    private struct WeakFile {
        weak var file: TokenFile?
    }

    /// The state of the file at `url`, shared by every storage of it, whatever path names it.
    static func shared(for url: URL) -> TokenFile {
        let path = canonicalPath(of: url)
        return files.withLock { files in
            if let file = files[path]?.file { return file }
            files = files.filter { $0.value.file != nil }
            let file = TokenFile(path: path)
            files[path] = WeakFile(file: file)
            return file
        }
    }

    /// `url`'s path with every symbolic link resolved (`/var` → `/private/var` on Apple
    /// platforms, a linked home folder): two paths to one file must share one ledger, or a
    /// sign-out through one leaves the other sending the old token. The file and its folders
    /// may not exist yet, so the longest part that exists is resolved and the rest appended.
    static func canonicalPath(of url: URL) -> String {
        var existing = url.standardizedFileURL
        var rest: [String] = []
        while !FileManager.default.fileExists(atPath: existing.path), existing.pathComponents.count > 1 {
            rest.insert(existing.lastPathComponent, at: 0)
            existing.deleteLastPathComponent()
        }
        var resolved = existing.path
        if let pointer = realpath(existing.path, nil) {
            resolved = String(cString: pointer)
            free(pointer)
        }
        return rest.reduce(URL(fileURLWithPath: resolved)) { $0.appendingPathComponent($1) }.path
    }
}
