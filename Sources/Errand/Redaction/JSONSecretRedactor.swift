import Foundation

/// Replaces the values of chosen keys in JSON text, leaving every other byte where it was.
///
/// Working on the text rather than re-serializing a parsed object keeps the body's key order,
/// spacing and number spelling: a redacted body differs from the original only where a
/// secret was, on every platform (`JSONSerialization` sorts and prints differently on Linux and
/// Apple platforms). The walk keeps a stack instead of recursing, so depth cannot overflow it.
package struct JSONSecretRedactor {
    private let bytes: [UInt8]
    private let isSecret: (String) -> Bool
    private let replacement: [UInt8]

    /// Redacts the values of the keys `isSecret` accepts in a JSON body; `nil` when the body
    /// is not well-formed enough to walk, in which case the caller keeps or hides it whole.
    package static func redact(_ body: Data, placeholder: String, isSecret: (String) -> Bool)
        -> SecretVocabulary.RedactedBody?
    {
        let literal =
            (try? JSONSerialization.data(withJSONObject: [placeholder]))
            .map { Array($0.dropFirst().dropLast()) } ?? Array("\"\"".utf8)
        return withoutActuallyEscaping(isSecret) { isSecret in
            JSONSecretRedactor(bytes: Array(body), isSecret: isSecret, replacement: literal).walk()
        }
    }

    /// Whether a body sent or received without a content type reads as JSON: its first byte
    /// after any whitespace opens an object or an array. Such a body is redacted as JSON, so that
    /// a client that forgot `Content-Type` does not have its secrets kept in clear.
    package static func looksLikeJSON(_ body: Data) -> Bool {
        for byte in body where !(byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D) {
            return byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[")
        }
        return false
    }

    private func walk() -> SecretVocabulary.RedactedBody? {
        var output: [UInt8] = []
        var replaced: [Data] = []
        var copied = 0
        var inObject: [Bool] = []
        var expectKey = false
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case 0x7B:
                inObject.append(true)
                expectKey = true
                index += 1
            case 0x5B:
                inObject.append(false)
                expectKey = false
                index += 1
            case 0x7D, 0x5D:
                guard inObject.popLast() != nil else { return nil }
                expectKey = false
                index += 1
            case 0x2C:
                expectKey = inObject.last == true
                index += 1
            case 0x22 where expectKey:
                guard let keyEnd = stringEnd(from: index) else { return nil }
                let key = decodedString(bytes[index..<keyEnd])
                var valueStart = skipWhitespace(from: keyEnd)
                guard valueStart < bytes.count, bytes[valueStart] == 0x3A else { return nil }
                valueStart = skipWhitespace(from: valueStart + 1)
                expectKey = false
                guard let key, isSecret(key) else {
                    index = valueStart
                    continue
                }
                guard let valueEnd = valueEnd(from: valueStart) else { return nil }
                output.append(contentsOf: bytes[copied..<valueStart])
                output.append(contentsOf: replacement)
                replaced.append(Data(bytes[valueStart..<valueEnd]))
                copied = valueEnd
                index = valueEnd
            case 0x22:
                guard let end = stringEnd(from: index) else { return nil }
                index = end
            default:
                index += 1
            }
        }
        guard inObject.isEmpty else { return nil }
        output.append(contentsOf: bytes[copied...])
        var secrets: [String] = []
        for value in replaced {
            if let parsed = try? JSONSerialization.jsonObject(with: value, options: [.fragmentsAllowed]) {
                Self.collect(parsed, into: &secrets)
            } else {
                secrets.append(String(decoding: value, as: UTF8.self))
            }
        }
        return SecretVocabulary.RedactedBody(data: Data(output), secrets: secrets)
    }

    /// The leaves of a replaced value, as text: strings, numbers and booleans.
    private static func collect(_ value: Any, into secrets: inout [String]) {
        if let text = value as? String {
            secrets.append(text)
        } else if let object = value as? [String: Any] {
            for member in object.values { collect(member, into: &secrets) }
        } else if let array = value as? [Any] {
            for element in array { collect(element, into: &secrets) }
        } else if !(value is NSNull) {
            secrets.append("\(value)")
        }
    }

    /// The index just past the string that starts with the quote at `start`.
    private func stringEnd(from start: Int) -> Int? {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case 0x22: return index + 1
            case 0x5C: index += 2
            default: index += 1
            }
        }
        return nil
    }

    /// The index just past the value that starts at `start`: a string, a container, a scalar.
    private func valueEnd(from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        var depth = 0
        var index = start
        repeat {
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case 0x22:
                guard let end = stringEnd(from: index) else { return nil }
                index = end
            case 0x7B, 0x5B:
                depth += 1
                index += 1
            case 0x7D, 0x5D:
                depth -= 1
                index += 1
            default:
                if depth == 0 {
                    while index < bytes.count,
                        ![0x2C, 0x7D, 0x5D, 0x20, 0x0A, 0x0D, 0x09].contains(bytes[index])
                    {
                        index += 1
                    }
                } else {
                    index += 1
                }
            }
        } while depth > 0
        return depth == 0 ? index : nil
    }

    private func skipWhitespace(from start: Int) -> Int {
        var index = start
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) {
            index += 1
        }
        return index
    }

    /// The text of a JSON string literal, escapes undone.
    private func decodedString(_ literal: ArraySlice<UInt8>) -> String? {
        guard literal.contains(0x5C) else {
            return String(decoding: literal.dropFirst().dropLast(), as: UTF8.self)
        }
        return try? JSONDecoder().decode(String.self, from: Data(literal))
    }
}
