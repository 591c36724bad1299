import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The temporary files of interrupted writes: how they are named, and when they are removed.
//
// A temporary file is named `.<file>.<UUID>-<pid>.tmp`, after the file it replaces and the
// process that writes it. It is a leftover, and removed, once that process is gone (killed
// mid-write), once it is older than any write takes, or when its name is of the older form
// `.<file>.<UUID>.tmp`, which names no process. Another process's write in progress is left to
// finish; so is one of this process, which may be another thread's.
extension PrivateFile {
    /// How old, in seconds, a temporary file must be to count as abandoned even while the process
    /// that named it runs (a reused process ID, a hung writer): no write takes this long.
    package static let abandonedWriteAge: TimeInterval = 600

    /// A fresh temporary name for the file named `name`.
    static func temporaryName(for name: String) -> String {
        ".\(name).\(UUID().uuidString)-\(getpid()).tmp"
    }

    /// What a temporary file's name says: the file it was written for, and the process that
    /// wrote it (`nil` in the older form). `nil` when `name` is not a temporary file's.
    ///
    /// - Parameter name: A file name in a folder.
    /// - Returns: The name of the file it was written for, and its writer's process ID.
    package static func temporaryTarget(of name: String) -> (file: String, writer: pid_t?)? {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
        let inner = name.dropFirst().dropLast(4)
        guard let dot = inner.lastIndex(of: "."), dot > inner.startIndex else { return nil }
        let tag = inner[inner.index(after: dot)...]
        guard tag.utf8.count >= 36, UUID(uuidString: String(tag.prefix(36))) != nil else { return nil }
        let file = String(inner[..<dot])
        let rest = tag.dropFirst(36)
        guard let dash = rest.first else { return (file, nil) }
        let digits = rest.dropFirst()
        guard dash == "-", !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let writer = pid_t(digits), writer > 0
        else { return nil }
        return (file, writer)
    }

    /// Removes the temporary files of `url` that no write in progress will rename.
    ///
    /// - Parameters:
    ///   - url: The file whose leftovers to remove.
    ///   - now: The time, to tell how old a temporary file is.
    package static func removeLeftovers(of url: URL, now: Date = Date()) {
        let name = url.lastPathComponent
        removeLeftovers(in: url.deletingLastPathComponent(), now: now) { $0 == name }
    }

    /// Removes, in `folder`, the temporary files that no write in progress will rename, of the
    /// files `belongs` accepts; every other file is left alone.
    ///
    /// - Parameters:
    ///   - folder: The folder.
    ///   - now: The time, to tell how old a temporary file is.
    ///   - belongs: Whether the file a temporary file was written for is one of the caller's.
    package static func removeLeftovers(in folder: URL, now: Date = Date(), of belongs: (String) -> Bool) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        let staleBefore = now.timeIntervalSince1970 - abandonedWriteAge
        for name in names {
            guard let target = temporaryTarget(of: name), belongs(target.file) else { continue }
            let path = folder.appending(path: name).path
            if let writer = target.writer, isRunning(writer), !isModified(path, before: staleBefore) {
                continue
            }
            unlink(path)
        }
    }

    /// Whether process `writer` runs (or may: one that cannot be signalled is taken as running).
    private static func isRunning(_ writer: pid_t) -> Bool {
        kill(writer, 0) == 0 || errno == EPERM
    }

    /// Whether the file at `path` was last modified before `time`, in seconds since 1970.
    private static func isModified(_ path: String, before time: TimeInterval) -> Bool {
        var status = stat()
        guard lstat(path, &status) == 0 else { return false }
        #if canImport(Darwin)
            let modified = status.st_mtimespec.tv_sec
        #else
            let modified = status.st_mtim.tv_sec
        #endif
        return TimeInterval(modified) < time
    }
}
