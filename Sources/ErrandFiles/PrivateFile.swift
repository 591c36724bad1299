import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every file the library writes, and every folder it makes for one: private and whole.
///
/// - A file is mode 0600 and a folder made for it 0700, whatever the process's umask: each is
///   created with that mode (a umask can only take bits away, so others never get in, not even
///   for a moment) and then set to it exactly. Folders that already exist are left alone.
/// - A file is written to a temporary file beside it, flushed to disk and renamed over it, so a
///   crash leaves either the previous file or the new one, whole.
/// - The temporary files that an interrupted write left behind are removed by the next write of
///   the file, by its removal, and when a store opens its folder (``removeLeftovers(of:now:)``).
/// - A file is read only once its size is known to be within a limit, and only if it is a
///   regular file (a FIFO in its place would block the reader forever).
///
/// Token files, disk cache entries and their key, cassettes and flight recordings all go
/// through here.
package enum PrivateFile {
    /// Writes `data` to a new mode-0600 file beside `url`, flushes it, and renames it over `url`.
    ///
    /// Missing folders on the way are created with mode 0700.
    ///
    /// - Parameters:
    ///   - data: The bytes.
    ///   - url: The file to replace or create.
    ///   - removingLeftovers: Whether to remove the temporary files of `url` that interrupted
    ///     writes left first; a store that sweeps its whole folder when it opens it passes `false`.
    ///   - beforeReplacing: Called with the temporary file once it is complete and flushed, just
    ///     before it replaces `url`; a test looks at the files there.
    /// - Throws: ``PrivateFileError`` when a folder cannot be made, or the file cannot be written
    ///   or renamed; `url` is then as it was.
    package static func write(
        _ data: Data, to url: URL, removingLeftovers: Bool = true,
        beforeReplacing: (_ temporary: URL) throws -> Void = { _ in }
    ) throws(PrivateFileError) {
        let folder = url.deletingLastPathComponent()
        try createFolder(folder)
        if removingLeftovers { removeLeftovers(of: url) }
        let temporary = folder.appending(path: temporaryName(for: url.lastPathComponent))
        try writeNew(data, at: temporary.path)
        do {
            try beforeReplacing(temporary)
        } catch {
            unlink(temporary.path)
            throw PrivateFileError(.cannotWrite, path: url.path, underlyingError: error)
        }
        guard rename(temporary.path, url.path) == 0 else {
            let failure = PrivateFileError(.cannotReplace, path: url.path, code: errno)
            unlink(temporary.path)
            throw failure
        }
    }

    /// Writes `data` to `url` only if there is no file there yet, atomically: of two writers
    /// racing, exactly one file wins whole, and the loser reads it back.
    ///
    /// - Parameters:
    ///   - data: The bytes.
    ///   - url: The file to create.
    /// - Returns: Whether this call created the file.
    /// - Throws: ``PrivateFileError`` when the file cannot be written.
    package static func create(_ data: Data, at url: URL) throws(PrivateFileError) -> Bool {
        let folder = url.deletingLastPathComponent()
        try createFolder(folder)
        removeLeftovers(of: url)
        let temporary = folder.appending(path: temporaryName(for: url.lastPathComponent))
        try writeNew(data, at: temporary.path)
        defer { unlink(temporary.path) }
        // A hard link, unlike a rename, never replaces a file that is already there.
        if link(temporary.path, url.path) == 0 { return true }
        let code = errno
        if code == EEXIST { return false }
        // A file system without hard links: a rename is still atomic, if not exclusive.
        guard rename(temporary.path, url.path) == 0 else {
            throw PrivateFileError(.cannotReplace, path: url.path, code: code)
        }
        return true
    }

    /// The bytes of the file at `url`, or `nil` when there is none; its size is checked first.
    ///
    /// - Parameters:
    ///   - url: The file.
    ///   - limit: The most bytes the file may hold; a larger one is not read at all.
    /// - Returns: The bytes, or `nil` when no file is there.
    /// - Throws: ``PrivateFileError`` with ``PrivateFileError/Problem/tooLarge(size:limit:)``
    ///   over the limit, ``PrivateFileError/Problem/notARegularFile`` for a folder, FIFO or
    ///   device, ``PrivateFileError/Problem/cannotRead`` when it cannot be opened or read.
    package static func read(_ url: URL, limit: Int) throws(PrivateFileError) -> Data? {
        // Non-blocking: opening a FIFO for reading would otherwise wait for a writer.
        let descriptor = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw PrivateFileError(.cannotRead, path: url.path, code: errno)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw PrivateFileError(.cannotRead, path: url.path, code: errno)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw PrivateFileError(.notARegularFile, path: url.path)
        }
        let size = Int(clamping: status.st_size)
        guard size <= limit else {
            throw PrivateFileError(.tooLarge(size: size, limit: limit), path: url.path)
        }
        // Read to the end, one byte past the limit at most: the file may have grown since.
        var data = Data(count: min(size, limit) + 1)
        var total = 0
        var code: Int32 = 0
        data.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            while code == 0, total < buffer.count {
                let count = Foundation.read(descriptor, base + total, buffer.count - total)
                if count > 0 {
                    total += count
                } else if count == 0 {
                    return
                } else if errno != EINTR {
                    code = errno
                }
            }
        }
        guard code == 0 else { throw PrivateFileError(.cannotRead, path: url.path, code: code) }
        guard total <= limit else {
            throw PrivateFileError(.tooLarge(size: total, limit: limit), path: url.path)
        }
        return data.prefix(total)
    }

    /// Deletes the file at `url`, if there is one, and the temporary files interrupted writes of
    /// it left behind.
    ///
    /// - Parameter url: The file.
    /// - Returns: Whether there was a file to delete.
    /// - Throws: ``PrivateFileError`` when the file is there but cannot be deleted.
    @discardableResult
    package static func remove(_ url: URL) throws(PrivateFileError) -> Bool {
        defer { removeLeftovers(of: url) }
        if unlink(url.path) == 0 { return true }
        if errno == ENOENT { return false }
        throw PrivateFileError(.cannotRemove, path: url.path, code: errno)
    }

    /// Creates `folder` and every missing folder above it with mode 0700, leaving alone every
    /// folder that is already there.
    ///
    /// - Parameter folder: The folder.
    /// - Throws: ``PrivateFileError`` when a folder cannot be made.
    package static func createFolder(_ folder: URL) throws(PrivateFileError) {
        var missing: [String] = []
        var path = folder.standardizedFileURL.path
        var status = stat()
        while path.count > 1, stat(path, &status) != 0 {
            missing.append(path)
            path = (path as NSString).deletingLastPathComponent
        }
        for path in missing.reversed() {
            if mkdir(path, 0o700) == 0 {
                // Only the folders made here: a user's own folders keep their modes.
                chmod(path, 0o700)
            } else if errno != EEXIST {
                throw PrivateFileError(.cannotCreateFolder, path: path, code: errno)
            }
        }
    }

    /// Creates the file at `path`, which must not exist, with mode 0600, and writes and flushes
    /// `data`; removes it again when that fails.
    private static func writeNew(_ data: Data, at path: String) throws(PrivateFileError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw PrivateFileError(.cannotWrite, path: path, code: errno) }
        var code: Int32 = 0
        // The umask may have taken the owner's bits away; nobody else's were ever given.
        if fchmod(descriptor, 0o600) != 0 { code = errno }
        var written = 0
        data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            while code == 0, written < buffer.count {
                let count = Foundation.write(descriptor, base + written, buffer.count - written)
                if count > 0 {
                    written += count
                } else if count == 0 {
                    code = EIO
                } else if errno != EINTR {
                    code = errno
                }
            }
        }
        if code == 0 { code = flushToDrive(descriptor) }
        if close(descriptor) != 0, code == 0 { code = errno }
        guard code == 0 else {
            unlink(path)
            throw PrivateFileError(.cannotWrite, path: path, code: code)
        }
    }

    /// Flushes `descriptor`'s data to the drive, returning 0 or the `errno`.
    ///
    /// On Apple platforms `fsync` leaves the data in the drive's cache, where a power loss takes
    /// it; `F_FULLFSYNC` flushes that too. A file system that refuses it gets `fsync`, as SQLite
    /// does.
    private static func flushToDrive(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
            if fcntl(descriptor, F_FULLFSYNC) == 0 { return 0 }
        #endif
        return fsync(descriptor) == 0 ? 0 : errno
    }
}
