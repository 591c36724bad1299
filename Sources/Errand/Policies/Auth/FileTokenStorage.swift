import ErrandSync
import Foundation

/// Token storage in a JSON file readable by its owner only (mode 0600), on Linux and Apple.
///
/// Writes go to a temporary file created with mode 0600 in the same folder, which is then
/// renamed over the old one, so a crash mid-write leaves the previous tokens intact and the
/// secret is never readable by others, not even for a moment. Missing folders are created.
public final class FileTokenStorage: TokenStorage {
    /// The file the tokens live in.
    public let url: URL
    private let cache = Locked<TokenPair??>(nil)

    /// Creates a storage backed by the file at `url`.
    public init(url: URL) {
        self.url = url
    }

    /// The stored pair, read from the file once and then from memory.
    ///
    /// - Throws: When the file exists but cannot be read or decoded.
    public func read() async throws -> TokenPair? {
        if let cached = cache.withLock({ $0 }) { return cached }
        let tokens: TokenPair?
        if FileManager.default.fileExists(atPath: url.path) {
            tokens = try Self.decoder.decode(TokenPair.self, from: Data(contentsOf: url))
        } else {
            tokens = nil
        }
        cache.withLock { $0 = .some(tokens) }
        return tokens
    }

    /// Writes the pair to the file atomically, with mode 0600.
    public func write(_ tokens: TokenPair) async throws {
        try PrivateFile.write(try Self.encoder.encode(tokens), to: url)
        cache.withLock { $0 = .some(tokens) }
    }

    /// Deletes the file.
    public func clear() async throws {
        if FileManager.default.fileExists(atPath: url.path) {
            try FileManager.default.removeItem(at: url)
        }
        cache.withLock { $0 = .some(nil) }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}
