import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Atomic writes of files that only their owner may read.
enum PrivateFile {
    /// Writes `data` to a new mode-0600 file beside `url`, flushes it, and renames it over `url`.
    ///
    /// The file is created with its final mode (no window where others could read it), and the
    /// rename is atomic, so an interrupted write leaves the previous file whole.
    static func write(_ data: Data, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appending(path: ".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        var written = 0
        data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            while written < buffer.count {
                let count = Foundation.write(descriptor, base + written, buffer.count - written)
                guard count > 0 else { return }
                written += count
            }
        }
        let flushed = fsync(descriptor)
        close(descriptor)
        guard written == data.count, flushed == 0, rename(temporary.path, url.path) == 0 else {
            unlink(temporary.path)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
    }
}
