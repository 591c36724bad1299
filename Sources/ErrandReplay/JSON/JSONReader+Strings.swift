import Foundation

extension JSONReader {
    /// Reads the string whose opening quote is at `index`, escapes undone, checking its UTF-8
    /// (RFC 3629: no overlongs, no surrogates) and its escapes as Foundation's reader does.
    mutating func scanString() -> Result<String, Problem> {
        index += 1
        var runStart = index
        // Only a string with escapes is copied byte by byte; most have none.
        var decoded: [UInt8]?
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x22:
                let run = bytes[runStart..<index]
                index += 1
                guard var text = decoded else { return .success(String(decoding: run, as: UTF8.self)) }
                text.append(contentsOf: run)
                return .success(String(decoding: text, as: UTF8.self))
            case 0x5C:
                var text = decoded ?? []
                text.append(contentsOf: bytes[runStart..<index])
                switch scanEscape() {
                case .success(let scalar): text.append(contentsOf: String(scalar).utf8)
                case .failure(let problem): return .failure(problem)
                }
                decoded = text
                runStart = index
            case 0x00..<0x20:
                return .failure(
                    problem("a raw control character (byte \(byte)) inside a string; it must be escaped"))
            case 0x80...:
                if let problem = scanUTF8Sequence() { return .failure(problem) }
            default:
                index += 1
            }
        }
        return .failure(endOfInput())
    }

    /// Checks one multi-byte UTF-8 sequence (RFC 3629: no overlongs, no surrogates).
    private mutating func scanUTF8Sequence() -> Problem? {
        let lead = bytes[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, secondRange) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: (length, secondRange) = (3, 0x80...0x9F)
        case 0xF0: (length, secondRange) = (4, 0x90...0xBF)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, secondRange) = (4, 0x80...0x8F)
        default: return problem("a byte that is not UTF-8 (\(describe(lead))) inside a string")
        }
        for offset in 1..<length {
            guard index + offset < bytes.count else { return endOfInput() }
            let allowed = offset == 1 ? secondRange : 0x80...0xBF
            guard allowed.contains(bytes[index + offset]) else {
                return problem(
                    "a byte sequence that is not UTF-8 (starting \(describe(lead))) inside a string")
            }
        }
        index += length
        return nil
    }

    /// Reads the escape whose backslash is at `index`: the character it stands for.
    private mutating func scanEscape() -> Result<Unicode.Scalar, Problem> {
        index += 1
        guard index < bytes.count else { return .failure(endOfInput()) }
        let letter = bytes[index]
        guard letter == 0x75 else {
            let simple: [UInt8: UInt8] = [
                0x22: 0x22, 0x5C: 0x5C, 0x2F: 0x2F, 0x62: 0x08, 0x66: 0x0C, 0x6E: 0x0A, 0x72: 0x0D,
                0x74: 0x09,
            ]
            guard let character = simple[letter] else {
                return .failure(problem("invalid escape \\\(describe(letter)) in a string"))
            }
            index += 1
            return .success(Unicode.Scalar(character))
        }
        index += 1
        guard let unit = hexUnit() else { return .failure(unitProblem()) }
        if (0xDC00...0xDFFF).contains(unit) {
            return .failure(problem("an unpaired UTF-16 low surrogate escape in a string"))
        }
        guard (0xD800...0xDBFF).contains(unit) else {
            return Unicode.Scalar(unit).map { .success($0) } ?? .failure(unitProblem())
        }
        guard index + 1 < bytes.count else { return .failure(endOfInput()) }
        guard bytes[index] == 0x5C, bytes[index + 1] == 0x75 else {
            return .failure(problem("an unpaired UTF-16 high surrogate escape in a string"))
        }
        index += 2
        guard let low = hexUnit() else { return .failure(unitProblem()) }
        guard (0xDC00...0xDFFF).contains(low),
            let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
        else {
            return .failure(problem("an unpaired UTF-16 high surrogate escape in a string"))
        }
        return .success(scalar)
    }

    private mutating func hexUnit() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        // As Foundation's reader does, this takes a sign too (`\u+041`): what one accepts, so does the other.
        guard let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
            return nil
        }
        index += 4
        return value
    }

    private func unitProblem() -> Problem {
        index + 4 > bytes.count ? endOfInput() : problem("\\u must be followed by four hex digits")
    }
}
