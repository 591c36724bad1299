import Errand
import Foundation

/// Searches the bytes of a cassette for secrets that were redacted elsewhere in the session,
/// and hides the ones it can.
///
/// Redaction replaces values where it knows to look (named headers, query items, body keys).
/// A server that echoes a request (httpbin's `/anything`, an error quoting a token) can put the
/// same value somewhere else, and seldom in the form it was sent: `SecretSpelling` lists them
/// (the bare credentials after `Bearer `, the user and password inside `Basic`, percent-encoded,
/// JSON-escaped, base64). Each spelling is searched for as the HAR file writes it, inside its
/// JSON strings. A match in plain, JSON-escaped or percent-encoded text is replaced by the
/// placeholder in the same spelling, so the file reads as if that spot had been redacted; a
/// match in base64 cannot be replaced exactly, and is reported as a ``Leak`` instead.
///
/// Values shorter than `SecretSpelling.minimumLength` (6) are not searched for, since they
/// would be found by chance (a cookie `theme=dark`); values shorter than
/// `SecretSpelling.anywhereLength` (8) count only as whole words.
enum HARSecretScan {
    /// Where a secret was found that could not be hidden.
    struct Leak: Sendable {
        /// The 1-based line of the file.
        let line: Int
        /// The entry it is in, if any.
        let entryIndex: Int?
        /// The field it is in, such as `response.content.text`, if the file's layout tells.
        let field: String?
        /// The line, trimmed, with the secret replaced by `<secret>`.
        let context: String
    }

    /// The bytes with every replaceable spelling hidden, and the first one that could not be.
    struct Outcome {
        /// The file to write.
        let data: Data
        /// How many spellings were replaced by the placeholder.
        let replaced: Int
        /// A spelling that could not be replaced; the file must not be written when set.
        let leak: Leak?
    }

    /// One spelling of one secret, as the file writes it.
    struct Needle {
        let bytes: [UInt8]
        let replacement: [UInt8]?
        let wholeWordOnly: Bool
    }

    /// A spelling found at `start..<end`.
    struct Hit {
        let start: Int
        let end: Int
        let needle: Needle
    }

    /// Hides every spelling of `secrets` in `data` that can be hidden exactly.
    static func clean(_ data: Data, secrets: Set<String>, placeholder: String) -> Outcome {
        let bytes = Array(data)
        let hits = find(needles(for: secrets, placeholder: placeholder), in: bytes)
        guard !hits.isEmpty else { return Outcome(data: data, replaced: 0, leak: nil) }
        if let refused = hits.first(where: { $0.needle.replacement == nil }) {
            return Outcome(data: data, replaced: 0, leak: leak(at: refused, in: bytes))
        }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var copied = 0
        for hit in hits {
            output.append(contentsOf: bytes[copied..<hit.start])
            output.append(contentsOf: hit.needle.replacement ?? [])
            copied = hit.end
        }
        output.append(contentsOf: bytes[copied...])
        return Outcome(data: Data(output), replaced: hits.count, leak: nil)
    }

    /// The first place where a spelling of one of `secrets` appears in `data`, or `nil`.
    static func firstLeak(of secrets: Set<String>, in data: Data) -> Leak? {
        let bytes = Array(data)
        return find(needles(for: secrets, placeholder: ""), in: bytes).first.map { leak(at: $0, in: bytes) }
    }

    private static func needles(for secrets: Set<String>, placeholder: String) -> [Needle] {
        var needles: [Needle] = []
        var seen: Set<[UInt8]> = []
        for secret in secrets where placeholder.isEmpty || !placeholder.contains(secret) {
            for spelling in SecretSpelling.spellings(of: secret) {
                let bytes = escaped(spelling.text)
                guard seen.insert(bytes).inserted else { continue }
                needles.append(
                    Needle(
                        bytes: bytes,
                        replacement: spelling.replacement(for: placeholder).map { escaped($0) },
                        wholeWordOnly: spelling.isWholeWordOnly))
            }
        }
        // Longest first, so a position reports its longest spelling.
        return needles.sorted { $0.bytes.count > $1.bytes.count }
    }

    /// Every match inside a JSON string of the file, left to right, none overlapping.
    private static func find(_ needles: [Needle], in bytes: [UInt8]) -> [Hit] {
        guard !needles.isEmpty else { return [] }
        // Needles are bucketed by their first two bytes (all are at least six bytes long), so
        // each position of a large file is compared with the few that can start there.
        var byPrefix: [Int: [Int]] = [:]
        for (index, needle) in needles.enumerated() where needle.bytes.count >= 2 {
            byPrefix[Int(needle.bytes[0]) << 8 | Int(needle.bytes[1]), default: []].append(index)
        }
        let strings = stringBytes(of: bytes)
        var hits: [Hit] = []
        var position = 0
        while position < bytes.count {
            var found: Hit?
            if strings[position], position + 1 < bytes.count,
                let candidates = byPrefix[Int(bytes[position]) << 8 | Int(bytes[position + 1])]
            {
                for index in candidates {
                    let needle = needles[index]
                    let end = position + needle.bytes.count
                    guard end <= bytes.count, strings[end - 1],
                        bytes[position..<end].elementsEqual(needle.bytes),
                        !needle.wholeWordOnly || isWhole(position..<end, in: bytes),
                        !startsInsideUnicodeEscape(position, in: bytes)
                    else { continue }
                    // A match that begins on the character an escape backslash escapes takes
                    // the backslash too, so no dangling escape is left.
                    let start = max(
                        escapesBefore(position, in: bytes) % 2 == 1 ? position - 1 : position,
                        hits.last?.end ?? 0)
                    found = Hit(start: start, end: end, needle: needle)
                    break
                }
            }
            if let found {
                hits.append(found)
                position = found.end
            } else {
                position += 1
            }
        }
        return hits
    }

    /// For each byte, whether it lies inside a JSON string (quotes excluded).
    private static func stringBytes(of bytes: [UInt8]) -> [Bool] {
        var result = [Bool](repeating: false, count: bytes.count)
        var inString = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x22 {
                inString.toggle()
            } else if inString {
                result[index] = true
                if byte == 0x5C, index + 1 < bytes.count {
                    result[index + 1] = true
                    index += 1
                }
            }
            index += 1
        }
        return result
    }

    /// Whether `position` is one of the four hex digits of a `\uXXXX` escape, where a
    /// replacement would leave the escape broken.
    private static func startsInsideUnicodeEscape(_ position: Int, in bytes: [UInt8]) -> Bool {
        (2...5).contains { back in
            let slash = position - back
            return slash >= 0 && bytes[slash] == 0x5C && bytes[slash + 1] == 0x75
                && escapesBefore(slash, in: bytes) % 2 == 0
        }
    }

    private static func escapesBefore(_ position: Int, in bytes: [UInt8]) -> Int {
        var count = 0
        var index = position - 1
        while index >= 0, bytes[index] == 0x5C {
            count += 1
            index -= 1
        }
        return count
    }

    private static func isWhole(_ range: Range<Int>, in bytes: [UInt8]) -> Bool {
        let before = range.lowerBound > 0 ? bytes[range.lowerBound - 1] : 0x20
        let after = range.upperBound < bytes.count ? bytes[range.upperBound] : 0x20
        let startsWord = isWordByte(bytes[range.lowerBound])
        let endsWord = isWordByte(bytes[range.upperBound - 1])
        return !(startsWord && isWordByte(before)) && !(endsWord && isWordByte(after))
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2B, 0x2F, 0x5F, 0x2D: true
        default: byte >= 0x80
        }
    }

    /// The string's bytes as the HAR writer spells it inside quotes (``JSONString``'s defaults,
    /// so the two cannot disagree).
    static func escaped(_ text: String) -> [UInt8] {
        var output: [UInt8] = []
        JSONString.append(text, to: &output)
        return output
    }
}
