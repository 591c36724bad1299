import Foundation

/// Finds where and why bytes are not valid JSON, for the reader's error messages.
///
/// `JSONDecoder` on Linux reports a syntax error as "The given data was not valid JSON" with no
/// position. When decoding fails that way, this scanner walks the bytes once more and reports
/// the first problem: its line and column, whether the input simply ends early (a truncated
/// file), and the JSON path of the value being read (`log.entries[17].response.content.text`).
/// It keeps an explicit stack instead of recursing, so deeply nested garbage cannot overflow,
/// and it also finds the two things that are valid JSON text but that Foundation's parser
/// refuses all the same, with the same "not valid JSON" and no position: nesting deeper than
/// ``maximumDepth`` and numbers too large for a `Double` (`1e400`).
struct HARJSONDiagnostics {
    /// The first syntax problem in the input.
    struct Problem {
        /// What was wrong, in words.
        let reason: String
        /// The kind of problem: `notJSON`, `truncated`, `nestedTooDeep` or `invalidValue`.
        let code: HARError.Code
        /// The 1-based line of the problem.
        let line: Int
        /// The 1-based column, in bytes, of the problem.
        let column: Int
        /// The path of the value being read when the problem was found.
        let path: [HARPathComponent]
    }

    /// The deepest nesting of arrays and objects that Foundation's JSON parser accepts.
    static let maximumDepth = 512

    private enum Frame {
        case object(key: String?)
        case array(index: Int)
    }

    private enum State {
        case value
        case key
        case afterValue
    }

    private let bytes: [UInt8]
    private var index = 0
    private var stack: [Frame] = []

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The first syntax problem in `data`, or `nil` when it is well-formed JSON.
    static func firstProblem(in data: Data) -> Problem? {
        var scanner = HARJSONDiagnostics(bytes: Array(data))
        if scanner.bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            scanner.index = 3
        }
        return scanner.scan()
    }

    private mutating func scan() -> Problem? {
        var state = State.value
        while true {
            skipWhitespace()
            switch state {
            case .value:
                guard index < bytes.count else { return endOfInput() }
                if [0x7B, 0x5B].contains(bytes[index]), stack.count >= Self.maximumDepth {
                    return make(
                        "arrays and objects are nested more than \(Self.maximumDepth) levels deep here (byte "
                            + "offset \(index)), deeper than a JSON reader accepts; HAR itself needs fewer than ten",
                        code: .nestedTooDeep, at: index)
                }
                switch bytes[index] {
                case 0x7B:
                    index += 1
                    skipWhitespace()
                    guard index < bytes.count else { return endOfInput() }
                    if bytes[index] == 0x7D {
                        index += 1
                        state = .afterValue
                    } else {
                        stack.append(.object(key: nil))
                        state = .key
                    }
                case 0x5B:
                    index += 1
                    skipWhitespace()
                    guard index < bytes.count else { return endOfInput() }
                    if bytes[index] == 0x5D {
                        index += 1
                        state = .afterValue
                    } else {
                        stack.append(.array(index: 0))
                    }
                case 0x22:
                    if let problem = scanString().problem { return problem }
                    state = .afterValue
                case 0x2D, 0x30...0x39:
                    if let problem = scanNumber() { return problem }
                    state = .afterValue
                case 0x74, 0x66, 0x6E:
                    if let problem = scanLiteral() { return problem }
                    state = .afterValue
                default:
                    return problem("unexpected \(describe(bytes[index])) where a value should start")
                }
            case .key:
                guard index < bytes.count else { return endOfInput() }
                guard bytes[index] == 0x22 else {
                    return problem("expected a quoted key but found \(describe(bytes[index]))")
                }
                let scanned = scanString()
                if let problem = scanned.problem { return problem }
                stack[stack.count - 1] = .object(key: scanned.text)
                skipWhitespace()
                guard index < bytes.count else { return endOfInput() }
                guard bytes[index] == 0x3A else {
                    return problem("expected ':' after a key but found \(describe(bytes[index]))")
                }
                index += 1
                state = .value
            case .afterValue:
                guard let top = stack.last else {
                    guard index < bytes.count else { return nil }
                    return problem("unexpected \(describe(bytes[index])) after the end of the JSON document")
                }
                guard index < bytes.count else { return endOfInput() }
                let byte = bytes[index]
                index += 1
                switch (top, byte) {
                case (.object, 0x2C):
                    stack[stack.count - 1] = .object(key: nil)
                    state = .key
                case (.array(let position), 0x2C):
                    stack[stack.count - 1] = .array(index: position + 1)
                    state = .value
                case (.object, 0x7D), (.array, 0x5D):
                    stack.removeLast()
                default:
                    index -= 1
                    let expected = if case .object = top { "',' or '}'" } else { "',' or ']'" }
                    return problem("expected \(expected) but found \(describe(byte))")
                }
            }
        }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) {
            index += 1
        }
    }

    private mutating func scanString() -> (text: String, problem: Problem?) {
        let start = index + 1
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x22:
                let text = String(decoding: bytes[start..<index], as: UTF8.self)
                index += 1
                return (text, nil)
            case 0x5C:
                if let problem = scanEscape() { return ("", problem) }
            case 0x00..<0x20:
                let reason = "a raw control character (byte \(byte)) inside a string; it must be escaped"
                return ("", problem(reason))
            case 0x80...:
                if let problem = scanUTF8Sequence() { return ("", problem) }
            default:
                index += 1
            }
        }
        return ("", endOfInput())
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

    private mutating func scanEscape() -> Problem? {
        index += 1
        guard index < bytes.count else { return endOfInput() }
        let letter = bytes[index]
        guard letter == 0x75 else {
            guard [0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74].contains(letter) else {
                return problem("invalid escape \\\(describe(letter)) in a string")
            }
            index += 1
            return nil
        }
        index += 1
        guard let unit = hexUnit() else { return unitProblem() }
        if (0xDC00...0xDFFF).contains(unit) {
            return problem("an unpaired UTF-16 low surrogate escape in a string")
        }
        guard (0xD800...0xDBFF).contains(unit) else { return nil }
        guard index + 1 < bytes.count else { return endOfInput() }
        guard bytes[index] == 0x5C, bytes[index + 1] == 0x75 else {
            return problem("an unpaired UTF-16 high surrogate escape in a string")
        }
        index += 2
        guard let low = hexUnit() else { return unitProblem() }
        guard (0xDC00...0xDFFF).contains(low) else {
            return problem("an unpaired UTF-16 high surrogate escape in a string")
        }
        return nil
    }

    private mutating func hexUnit() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        guard let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
            return nil
        }
        index += 4
        return value
    }

    private func unitProblem() -> Problem {
        index + 4 > bytes.count ? endOfInput() : problem("\\u must be followed by four hex digits")
    }

    private mutating func scanNumber() -> Problem? {
        let start = index
        if let problem = scanNumberSyntax() { return problem }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let number = Double(text), number.isFinite else {
            return make(
                "the number \(text.prefix(40)) is too large for a 64-bit floating-point number",
                code: .invalidValue, at: start)
        }
        return nil
    }

    private mutating func scanNumberSyntax() -> Problem? {
        let start = index
        _ = take { $0 == 0x2D }
        let integerDigits = digitCount()
        var valid = integerDigits > 0 && !(integerDigits > 1 && bytes[index - integerDigits] == 0x30)
        if valid, take({ $0 == 0x2E }) {
            valid = digitCount() > 0
        }
        if valid, take({ $0 == 0x45 || $0 == 0x65 }) {
            _ = take { $0 == 0x2B || $0 == 0x2D }
            valid = digitCount() > 0
        }
        guard valid else {
            if index == bytes.count { return endOfInput() }
            let text = String(decoding: bytes[start..<min(bytes.count, index + 1)], as: UTF8.self)
            index = start
            return problem("invalid number \(text.prefix(40))")
        }
        return nil
    }

    private mutating func take(_ accepts: (UInt8) -> Bool) -> Bool {
        guard index < bytes.count, accepts(bytes[index]) else { return false }
        index += 1
        return true
    }

    private mutating func digitCount() -> Int {
        let start = index
        while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
            index += 1
        }
        return index - start
    }

    private mutating func scanLiteral() -> Problem? {
        for literal in ["true", "false", "null"] where bytes[index] == literal.utf8.first {
            let expected = Array(literal.utf8)
            let available = bytes[index..<min(bytes.count, index + expected.count)]
            guard available.elementsEqual(expected.prefix(available.count)) else { break }
            guard available.count == expected.count else {
                index = bytes.count
                return endOfInput()
            }
            index += expected.count
            return nil
        }
        return problem("unexpected \(describe(bytes[index])) where a value should start")
    }

    private func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte)
            ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    private func endOfInput() -> Problem {
        make("the JSON ends early, inside an unfinished value", code: .truncated, at: bytes.count)
    }

    private func problem(_ reason: String) -> Problem {
        make(reason, code: .notJSON, at: index)
    }

    private func make(_ reason: String, code: HARError.Code, at offset: Int) -> Problem {
        var line = 1
        var lineStart = 0
        for position in 0..<min(offset, bytes.count) where bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        var path: [HARPathComponent] = []
        for frame in stack {
            switch frame {
            case .object(let key): if let key { path.append(.key(key)) }
            case .array(let position): path.append(.index(position))
            }
        }
        // Past a few levels a path only repeats itself: keep where the deep part starts.
        if code == .nestedTooDeep { path = Array(path.prefix(8)) }
        return Problem(
            reason: reason, code: code, line: line, column: offset - lineStart + 1, path: path
        )
    }
}
