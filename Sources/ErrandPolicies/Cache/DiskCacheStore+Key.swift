import Errand
import ErrandFiles
import Foundation

// The key of the store's digests: 32 random bytes in a file of its own in the folder.
extension DiskCacheStore {
    /// The name of the file that holds the folder's digest key.
    static let keyFileName = "digest.key"

    /// The size of the digest key, in bytes: that of an HMAC-SHA256 digest.
    static let keyByteCount = 32

    /// The digest key of the store in `folder`: read from its file, or made and written there
    /// (mode 0600) when there is none or it is not a key. A key that cannot be written serves
    /// this store only: what it stores for credentials then misses after a restart.
    static func digestKey(in folder: URL) -> Data {
        let file = folder.appending(path: keyFileName)
        var generator = SystemRandomNumberGenerator()
        let fresh = Data((0..<keyByteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        switch Result(catching: { () throws(PrivateFileError) in
            try PrivateFile.read(file, limit: keyByteCount)
        }) {
        case .success(let stored?) where stored.count == keyByteCount:
            return stored
        case .success(nil):
            // No key yet: of two stores opening the folder at once, the first to write one wins
            // and the other reads it back.
            if (try? PrivateFile.create(fresh, at: file)) == false,
                let stored = try? PrivateFile.read(file, limit: keyByteCount), stored.count == keyByteCount
            {
                return stored
            }
            return fresh
        default:
            // Cut short, too long, or not a file: a new key, under which old entries miss.
            try? PrivateFile.write(fresh, to: file)
            return fresh
        }
    }
}
