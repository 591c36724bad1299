import Foundation

/// How many cores this process may run on: fewer than the machine has when `taskset` pinned it.
///
/// `ProcessInfo.activeProcessorCount` counts the machine's cores whatever the affinity, so on
/// Linux the mask is read from `/proc/self/status` (`Cpus_allowed`, in hexadecimal, in groups of
/// eight digits between commas). Elsewhere, or when it cannot be read, every active core counts.
enum UsableCores {
    static func count() -> Int {
        let fallback = ProcessInfo.processInfo.activeProcessorCount
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") })
        else { return fallback }
        return count(ofMask: line.dropFirst("Cpus_allowed:".count)) ?? fallback
    }

    /// The bits set in a mask such as `00000000,00000003`, or `nil` when it is not one.
    static func count(ofMask mask: Substring) -> Int? {
        var bits = 0
        for character in mask where character != "," && !character.isWhitespace {
            guard let digit = character.hexDigitValue else { return nil }
            bits += digit.nonzeroBitCount
        }
        return bits > 0 ? bits : nil
    }
}
