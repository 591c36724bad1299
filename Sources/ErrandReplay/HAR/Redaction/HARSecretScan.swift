import Foundation

/// Searches the bytes of a cassette for secrets that were redacted elsewhere in the session.
///
/// Redaction replaces values where it knows to look (named headers, query items, body keys).
/// A server that echoes a request (httpbin's `/anything`, an error page quoting a header) can
/// put the same value somewhere else, where redaction does not look. Before a cassette is
/// written, every value redacted so far is searched for in the bytes to be written, as the
/// file spells it: JSON-escaped as a HAR string, escaped twice as inside a JSON body (with `/`
/// written `\/` or not), and percent-encoded as in a URL.
///
/// A value shorter than ``minimumLength`` is not searched for, as it would be found by chance
/// (a cookie `k=v`); a match counts only where it is not part of a longer word, so a secret is
/// not found inside base64 text or a longer token. A secret inside a base64 body cannot be seen.
enum HARSecretScan {
    /// Where a secret was found.
    struct Leak: Sendable {
        /// The 1-based line of the file.
        let line: Int
        /// The entry it is in, if any.
        let entryIndex: Int?
        /// The line, trimmed, with the secret replaced by `<secret>`.
        let context: String
    }

    /// The shortest value that is searched for.
    static let minimumLength = 4

    /// The first place where one of `secrets` appears in `data`, or `nil`.
    static func firstLeak(of secrets: Set<String>, in data: Data) -> Leak? {
        var first: (offset: Int, length: Int)?
        for secret in secrets where secret.count >= minimumLength {
            for spelling in spellings(of: secret) {
                if let offset = find(Data(spelling.utf8), in: data), offset < first?.offset ?? Int.max {
                    first = (offset, spelling.utf8.count)
                }
            }
        }
        guard let first else { return nil }
        return leak(at: first.offset, length: first.length, in: data)
    }

    /// The ways a secret can be written in a cassette: in a HAR string; inside a JSON body,
    /// which escapes it once more (and may write `/` as `\/`); percent-encoded in a URL.
    private static func spellings(of secret: String) -> Set<String> {
        [
            escaped(secret), escaped(escaped(secret)),
            escaped(secret.replacingOccurrences(of: "/", with: "\\/")),
            HARURLQuery.percentEncoded(secret),
        ]
    }

    /// The first offset where `needle` occurs as a whole word, or `nil`.
    private static func find(_ needle: Data, in data: Data) -> Int? {
        var start = data.startIndex
        while let range = data.range(of: needle, in: start..<data.endIndex) {
            let before = range.lowerBound > data.startIndex ? data[range.lowerBound - 1] : 0x20
            let after = range.upperBound < data.endIndex ? data[range.upperBound] : 0x20
            let startsWord = isWordByte(needle[needle.startIndex])
            let endsWord = isWordByte(needle[needle.endIndex - 1])
            if !(startsWord && isWordByte(before)) && !(endsWord && isWordByte(after)) {
                return range.lowerBound - data.startIndex
            }
            start = range.lowerBound + 1
        }
        return nil
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2B, 0x2F, 0x5F, 0x2D: true
        default: byte >= 0x80
        }
    }

    /// The string as the HAR writer spells it inside quotes.
    private static func escaped(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            default:
                if scalar.value < 0x20 {
                    output += String(format: "\\u%04x", scalar.value)
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output
    }

    private static func leak(at offset: Int, length: Int, in data: Data) -> Leak {
        let bytes = data.startIndex + offset
        let lineStart = data[..<bytes].lastIndex(of: 0x0A).map { $0 + 1 } ?? data.startIndex
        let lineEnd = data[bytes...].firstIndex(of: 0x0A) ?? data.endIndex
        let line = data[..<bytes].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        var context = Data(data[lineStart..<bytes])
        context.append(contentsOf: Array("<secret>".utf8))
        context.append(data[(bytes + length)..<lineEnd])
        var text = String(decoding: context, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        if text.count > 200 { text = String(text.prefix(200)) + "…" }
        return Leak(line: line, entryIndex: entryIndex(before: bytes, in: data), context: text)
    }

    /// The index of the entry that holds `offset`, counting entry starts in the writer's layout.
    private static func entryIndex(before offset: Data.Index, in data: Data) -> Int? {
        guard let entries = data.range(of: Data("\n    \"entries\": [".utf8)), entries.upperBound <= offset
        else { return nil }
        let marker = Data("\n      {\n".utf8)
        var count = 0
        var start = entries.upperBound
        while let found = data.range(of: marker, in: start..<offset) {
            count += 1
            start = found.upperBound
        }
        return count > 0 ? count - 1 : nil
    }
}
