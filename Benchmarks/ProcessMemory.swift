import Foundation

/// This process's resident memory, from `/proc/self/status` (Linux).
enum ProcessMemory {
    private static let statusPath = "/proc/self/status"

    /// Whether the figures can be read here.
    static var isAvailable: Bool { FileManager.default.isReadableFile(atPath: statusPath) }

    /// The resident set now (`VmRSS`) and its peak so far (`VmHWM`), in KiB.
    static func read() throws -> (resident: Int, peak: Int) {
        let status = try String(contentsOfFile: statusPath, encoding: .utf8)
        var resident: Int?
        var peak: Int?
        for line in status.split(separator: "\n") {
            if line.hasPrefix("VmRSS:") { resident = kibibytes(line) }
            if line.hasPrefix("VmHWM:") { peak = kibibytes(line) }
        }
        guard let resident, let peak else {
            throw BenchmarkError("\(statusPath) has no VmRSS or VmHWM line")
        }
        return (resident, peak)
    }

    /// Resets the peak to the current resident set by writing `5` to `/proc/self/clear_refs`.
    ///
    /// - Returns: Whether the kernel accepted it.
    static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do {
            try handle.write(contentsOf: Data("5".utf8))
            return true
        } catch {
            return false
        }
    }

    /// `VmRSS:	  12345 kB` → 12345.
    private static func kibibytes(_ line: Substring) -> Int? {
        line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) }
    }
}
