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
            let walk = JSONSecretRedactor(bytes: Array(body), isSecret: isSecret, replacement: literal).walk()
            guard case .end = walk.stop else { return nil }
            return SecretVocabulary.RedactedBody(data: Data(walk.output), secrets: leaves(of: walk.replaced))
        }
    }

    /// Whether a body sent or received without a content type reads as JSON: its first byte
    /// after any whitespace opens an object or an array. Such a body is redacted as JSON, so that
    /// a client that forgot `Content-Type` does not have its secrets kept in clear. A UTF-8
    /// byte order mark before it is skipped, as JSON readers skip it.
    package static func looksLikeJSON(_ body: Data) -> Bool {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let text = body.starts(with: bom) ? body.dropFirst(bom.count) : body[...]
        for byte in text where !(byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D) {
            return byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[")
        }
        return false
    }

    /// The values of the keys `isSecret` accepts in JSON text that cannot be read whole, as far
    /// as it can be read: each secret key's value, and the leaves of one cut short where the
    /// text ends (`{"password": "S3cr` gives `S3cr`, all that was sent of it).
    ///
    /// A body cut short has given up every secret it holds. One that breaks before its end (a
    /// key without a colon, a stray `}`) has not: what follows the break was not read, so its
    /// secrets are unknown.
    ///
    /// - Returns: The values found, and the offset from which the text was not read; `nil` when
    ///   it was read to its end.
    package static func secretsAsFarAsReadable(in body: Data, isSecret: (String) -> Bool) -> (
        secrets: [String], unreadFrom: Int?
    ) {
        withoutActuallyEscaping(isSecret) { isSecret in
            let redactor = JSONSecretRedactor(bytes: Array(body), isSecret: isSecret, replacement: [])
            let walk = redactor.walk()
            var secrets = Self.leaves(of: walk.replaced)
            if let partial = walk.cutValue { secrets += redactor.leaves(ofCutValueFrom: partial) }
            guard case .broken(let offset) = walk.stop else { return (secrets, nil) }
            return (secrets, offset)
        }
    }

    /// Why a walk stopped.
    private enum Stop {
        /// The text was read to its end, every container closed.
        case end
        /// The text ends inside a string or a container: it was cut short.
        case cutShort
        /// The text cannot be read from this offset on.
        case broken(at: Int)
    }

    /// What a walk read: the redacted text up to where it stopped, and the values it replaced.
    private struct Walk {
        var output: [UInt8] = []
        var replaced: [Data] = []
        var stop = Stop.end
        /// Where a secret key's value starts when the text ends inside it.
        var cutValue: Int?
    }

    private func walk() -> Walk {
        var result = Walk()
        var copied = 0
        var inObject: [Bool] = []
        var expectKey = false
        var index = 0
        func stop(_ reason: Stop) -> Walk {
            result.stop = reason
            return result
        }
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
                guard inObject.popLast() != nil else { return stop(.broken(at: index)) }
                expectKey = false
                index += 1
            case 0x2C:
                expectKey = inObject.last == true
                index += 1
            case 0x22 where expectKey:
                guard let keyEnd = stringEnd(from: index) else { return stop(.cutShort) }
                let key = decodedString(bytes[index..<keyEnd])
                var valueStart = skipWhitespace(from: keyEnd)
                guard valueStart < bytes.count else { return stop(.cutShort) }
                guard bytes[valueStart] == 0x3A else { return stop(.broken(at: index)) }
                valueStart = skipWhitespace(from: valueStart + 1)
                expectKey = false
                guard let key, isSecret(key) else {
                    index = valueStart
                    continue
                }
                guard let valueEnd = valueEnd(from: valueStart) else {
                    // A value that opens with a closer is broken; any other one ran into the end.
                    if valueStart < bytes.count, bytes[valueStart] == 0x7D || bytes[valueStart] == 0x5D {
                        return stop(.broken(at: index))
                    }
                    result.cutValue = valueStart < bytes.count ? valueStart : nil
                    return stop(.cutShort)
                }
                result.output.append(contentsOf: bytes[copied..<valueStart])
                result.output.append(contentsOf: replacement)
                result.replaced.append(Data(bytes[valueStart..<valueEnd]))
                copied = valueEnd
                index = valueEnd
            case 0x22:
                guard let end = stringEnd(from: index) else { return stop(.cutShort) }
                index = end
            default:
                index += 1
            }
        }
        guard inObject.isEmpty else { return stop(.cutShort) }
        result.output.append(contentsOf: bytes[copied...])
        return result
    }

    /// The leaves of each replaced value, as text.
    private static func leaves(of replaced: [Data]) -> [String] {
        var secrets: [String] = []
        for value in replaced {
            if let parsed = try? JSONSerialization.jsonObject(with: value, options: [.fragmentsAllowed]) {
                Self.collect(parsed, into: &secrets)
            } else {
                secrets.append(String(decoding: value, as: UTF8.self))
            }
        }
        return secrets
    }

    /// The strings and scalars of a value that the text cuts short, keys left out: what was
    /// sent of it, and so all an echo can repeat.
    private func leaves(ofCutValueFrom start: Int) -> [String] {
        var leaves: [String] = []
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case 0x7B, 0x7D, 0x5B, 0x5D, 0x2C, 0x3A, 0x20, 0x0A, 0x0D, 0x09:
                index += 1
            case 0x22:
                let end = stringEnd(from: index) ?? bytes.count
                let isKey = end < bytes.count && bytes[skipWhitespace(from: end)...].first == 0x3A
                if !isKey, let text = cutString(bytes[index..<end]), !text.isEmpty { leaves.append(text) }
                index = end
            default:
                let end =
                    bytes[index...].firstIndex {
                        [0x2C, 0x7D, 0x5D, 0x3A, 0x20, 0x0A, 0x0D, 0x09].contains($0)
                    }
                    ?? bytes.count
                leaves.append(String(decoding: bytes[index..<end], as: UTF8.self))
                index = end
            }
        }
        return leaves
    }

    /// The text of a string literal that may lack its closing quote, escapes undone where they
    /// can be.
    private func cutString(_ literal: ArraySlice<UInt8>) -> String? {
        if literal.count > 1, literal.last == 0x22, let text = decodedString(literal) { return text }
        var open = Array(literal)
        // A cut `\` or `\u00` escape cannot be undone: it is left out.
        if let slash = open.lastIndex(of: 0x5C), open.count - slash < 6 { open.removeSubrange(slash...) }
        return decodedString((open + [0x22])[...]) ?? String(decoding: open.dropFirst(), as: UTF8.self)
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
