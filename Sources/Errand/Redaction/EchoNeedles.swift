import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The spellings of a set of redacted values, as bytes, each searched for with `memchr` and
/// `memcmp`: a handful per secret, over bodies that are mostly free of them. The flight recorder
/// and the logging policy hide with it what a server echoes of a request's secrets.
package struct EchoNeedles: Sendable {
    private let needles: [[UInt8]]

    /// The spellings of `secrets` (see ``SecretSpelling/spellings(of:)``), without duplicates.
    package init(_ secrets: Set<String>) {
        var seen: Set<[UInt8]> = []
        needles = secrets.flatMap { secret in
            SecretSpelling.spellings(of: secret).map { Array($0.text.utf8) }.filter {
                seen.insert($0).inserted
            }
        }
    }

    /// Whether there is nothing to look for.
    package var isEmpty: Bool { needles.isEmpty }

    /// Whether any spelling occurs in `data`.
    package func occur(in data: Data) -> Bool {
        data.withUnsafeBytes { haystack in needles.contains { Self.find($0, in: haystack) } }
    }

    /// Whether any spelling occurs in one of `texts`, searched as one buffer.
    package func occur(in texts: [String]) -> Bool {
        var joined: [UInt8] = []
        for text in texts {
            joined.append(contentsOf: text.utf8)
            joined.append(0)
        }
        return joined.withUnsafeBytes { haystack in needles.contains { Self.find($0, in: haystack) } }
    }

    /// `text` with every spelling found replaced by `placeholder`, longest first.
    package func hidden(in text: String, placeholder: String) -> String {
        var text = text
        guard
            needles.contains(where: { needle in
                text.withUTF8 { Self.find(needle, in: UnsafeRawBufferPointer($0)) }
            })
        else { return text }
        for needle in needles.sorted(by: { $0.count > $1.count }) {
            text = text.replacingOccurrences(of: String(decoding: needle, as: UTF8.self), with: placeholder)
        }
        return text
    }

    /// Whether `needle` occurs in `haystack`: `memchr` to each place its first byte is, then
    /// `memcmp` (`memmem` is not in every C library's Swift module).
    private static func find(_ needle: [UInt8], in haystack: UnsafeRawBufferPointer) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count, let base = haystack.baseAddress
        else { return false }
        return needle.withUnsafeBytes { pattern in
            guard let patternBase = pattern.baseAddress else { return false }
            let last = haystack.count - needle.count
            var offset = 0
            while offset <= last {
                guard let hit = memchr(base + offset, Int32(first), last - offset + 1) else { return false }
                let position = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(base + position, patternBase, needle.count) == 0 { return true }
                offset = position + 1
            }
            return false
        }
    }
}
