import Foundation

extension HARSecretScan {
    /// Where `hit` is: its line, entry and field, and the line with the secret taken out.
    static func leak(at hit: Hit, in bytes: [UInt8]) -> Leak {
        let lineStart = bytes[..<hit.start].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let lineEnd = bytes[hit.end...].firstIndex(of: 0x0A) ?? bytes.count
        let line = bytes[..<hit.start].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        var context = Array(bytes[lineStart..<hit.start])
        context.append(contentsOf: Array("<secret>".utf8))
        context.append(contentsOf: bytes[hit.end..<lineEnd])
        var text = String(decoding: context, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        if text.count > 200 { text = String(text.prefix(200)) + "…" }
        return Leak(
            line: line, entryIndex: entryIndex(before: hit.start, in: bytes),
            field: field(atLineStarting: lineStart, in: bytes), context: text)
    }

    /// The index of the entry that holds `offset`, counting entry starts in the writer's layout.
    private static func entryIndex(before offset: Int, in bytes: [UInt8]) -> Int? {
        let data = Data(bytes)
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

    /// The keys from the entry down to the line's own key, read from the writer's indentation:
    /// `response.content.text`, `request.headers.value`.
    private static func field(atLineStarting start: Int, in bytes: [UInt8]) -> String? {
        let lines = String(decoding: bytes[..<start], as: UTF8.self).split(separator: "\n")
        let hitLine = String(decoding: bytes[start...].prefix { $0 != 0x0A }, as: UTF8.self)
        guard let own = key(of: Substring(hitLine)) else { return nil }
        var path = [own]
        var indent = indentation(of: Substring(hitLine))
        for line in lines.reversed() where indentation(of: line) < indent {
            indent = indentation(of: line)
            guard let key = key(of: line) else { continue }
            if key == "entries" { break }
            path.insert(key, at: 0)
        }
        return path.joined(separator: ".")
    }

    private static func indentation(of line: Substring) -> Int {
        line.prefix { $0 == " " }.count
    }

    private static func key(of line: Substring) -> String? {
        let trimmed = line.drop { $0 == " " }
        guard trimmed.first == "\"", let close = trimmed.dropFirst().firstIndex(of: "\""),
            trimmed[trimmed.index(after: close)...].hasPrefix(":")
        else { return nil }
        return String(trimmed[trimmed.index(after: trimmed.startIndex)..<close])
    }
}
