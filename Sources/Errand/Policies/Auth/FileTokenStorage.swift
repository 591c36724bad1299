import ErrandSync
import Foundation

/// Token storage in a JSON file readable by its owner only (mode 0600), on Linux and Apple.
///
/// Writes go to a temporary file created with mode 0600 in the same folder, which is then
/// renamed over the old one, so a crash mid-write leaves the previous tokens intact and the
/// secret is never readable by others, not even for a moment. Missing folders are created.
/// `expiresAt` is stored with full precision, so a pair reads back equal to the one written.
///
/// A file that cannot be read, or that does not hold valid tokens, throws a `NetworkError` with
/// code `tokenStorage` whose message names the file and the problem. The auth policy hands it on
/// to the request; the app recovers by calling ``clear()`` and signing the user in again.
public final class FileTokenStorage: TokenStorage, RevisionedTokenStorage {
    /// The file the tokens live in.
    public let url: URL
    /// The pair as last read or written (`nil` before the file was read), and a count of the
    /// writes and clears made through this storage.
    private let cache = Locked<(tokens: TokenPair??, revision: UInt64)>((nil, 0))

    /// Creates a storage backed by the file at `url`.
    public init(url: URL) {
        self.url = url
    }

    /// The stored pair, read from the file once and then from memory.
    ///
    /// - Throws: `NetworkError` with code `tokenStorage` when the file exists but cannot be read
    ///   or does not hold valid tokens.
    public func read() async throws -> TokenPair? {
        if let cached = cache.withLock({ $0.tokens }) { return cached }
        let tokens: TokenPair?
        if FileManager.default.fileExists(atPath: url.path) {
            tokens = try TokenStorageCoding.decode(try contents(), from: "the token file \(url.path)")
        } else {
            tokens = nil
        }
        // A write or clear that came while the file was read is newer: keep what it left.
        cache.withLock { if $0.tokens == nil { $0.tokens = .some(tokens) } }
        return tokens
    }

    /// Writes the pair to the file atomically, with mode 0600.
    ///
    /// - Throws: `NetworkError` with code `tokenStorage` when the file cannot be written.
    public func write(_ tokens: TokenPair) async throws {
        let data = try TokenStorageCoding.encode(tokens, to: "the token file \(url.path)")
        do {
            try PrivateFile.write(data, to: url)
        } catch {
            throw TokenStorageCoding.failure(
                "the token file \(url.path) could not be written: \(error)", cause: error)
        }
        cache.withLock { cache in
            cache.tokens = .some(tokens)
            cache.revision &+= 1
        }
    }

    /// Deletes the file.
    ///
    /// - Throws: `NetworkError` with code `tokenStorage` when the file cannot be deleted.
    public func clear() async throws {
        if FileManager.default.fileExists(atPath: url.path) {
            do {
                try FileManager.default.removeItem(at: url)
            } catch {
                throw TokenStorageCoding.failure(
                    "the token file \(url.path) could not be deleted: \(error)", cause: error)
            }
        }
        cache.withLock { cache in
            cache.tokens = .some(nil)
            cache.revision &+= 1
        }
    }

    var revision: UInt64 { cache.withLock { $0.revision } }

    private func contents() throws(NetworkError) -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw TokenStorageCoding.failure(
                "the token file \(url.path) could not be read: \(error)", cause: error)
        }
    }
}
