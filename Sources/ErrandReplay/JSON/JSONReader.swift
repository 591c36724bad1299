import Foundation

/// ErrandReplay's JSON reader, the first of its two JSON layers: bytes to a ``ReplayJSON`` tree,
/// or the first problem with where it is. (The second layer is the writer, ``HARJSON``.)
///
/// Why a reader of its own and not `JSONDecoder` or `JSONSerialization`: on Linux they report a
/// syntax error as "The given data was not valid JSON" with no position, and a cassette that
/// fails to load must say where (line, column, byte offset, the JSON path of the value being
/// read, `log.entries[17].response.content.text`) and whether the file simply ends early. The
/// reader also refuses, with a reason, the two things Foundation refuses without one: nesting
/// deeper than ``maximumDepth`` and numbers too large for a `Double` (`1e400`), so that what it
/// accepts is what Foundation accepts. It keeps explicit stacks instead of recursing, so deeply
/// nested garbage cannot overflow. The HAR reader's error messages, the replay matcher and the
/// cassette verifier all read through it.
struct JSONReader {
    /// The first problem in the input, and where it is, as a cassette's error reports it.
    struct Problem: Error, Equatable, Sendable {
        /// What was wrong, in words.
        let reason: String
        /// The kind of problem: `notJSON` (grammar or UTF-8), `truncated` (the input ends inside
        /// a value), `nestedTooDeep` (past ``JSONReader/maximumDepth``) or `invalidValue` (a
        /// number too large for a `Double`).
        let kind: HARError.Code
        /// The byte offset of the problem in the input (after any byte order mark's 3 bytes).
        let offset: Int
        /// The 1-based line of the problem.
        let line: Int
        /// The 1-based column, in bytes, of the problem.
        let column: Int
        /// The path of the value being read when the problem was found.
        let path: [HARPathComponent]
    }

    private static let posix = Locale(identifier: "en_US_POSIX")

    /// The deepest nesting of arrays and objects that Foundation's JSON parser accepts.
    static let maximumDepth = 512

    /// An open container: where its values start on the value stack, and where the reader is in it.
    private struct Frame {
        let isObject: Bool
        let valuesStart: Int
        let keysStart: Int
        /// The key being read in an object, until the comma after its value.
        var key: String?
        /// The element being read in an array.
        var index = 0
    }

    private enum State {
        case value
        case key
        case afterValue
    }

    let bytes: [UInt8]
    var index = 0
    /// Whether a number beyond `Decimal`'s range (`1e200`) is a problem, as it is for
    /// `JSONDecoder` reading a `Decimal`; otherwise it reads as 0.
    private let decimalNumbers: Bool
    private var frames: [Frame] = []
    private var values: [ReplayJSON] = []
    private var keys: [String] = []

    private init(bytes: [UInt8], decimalNumbers: Bool) {
        self.bytes = bytes
        self.decimalNumbers = decimalNumbers
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    /// Reads one JSON text (any value at the top, as Foundation's readers accept); a UTF-8 byte
    /// order mark before it is skipped.
    ///
    /// - Parameters:
    ///   - data: The bytes.
    ///   - decimalNumbers: Whether a number that a `Double` holds but a `Decimal` does not
    ///     (`1e200`) is a problem: yes for a value compared by meaning; no to find where a
    ///     cassette, whose numbers are `Double`s, breaks JSON's grammar.
    /// - Returns: The value, or the first problem.
    static func read(_ data: Data, decimalNumbers: Bool = true) -> Result<ReplayJSON, Problem> {
        var reader = JSONReader(bytes: Array(data), decimalNumbers: decimalNumbers)
        if let problem = reader.scan() { return .failure(problem) }
        return .success(reader.values.last ?? .null)
    }

    private mutating func scan() -> Problem? {
        var state = State.value
        while true {
            skipWhitespace()
            switch state {
            case .value:
                guard index < bytes.count else { return endOfInput() }
                if [0x7B, 0x5B].contains(bytes[index]), frames.count >= Self.maximumDepth {
                    return make(
                        "arrays and objects are nested more than \(Self.maximumDepth) levels deep here (byte "
                            + "offset \(index)), deeper than a JSON reader accepts; HAR itself needs fewer than ten",
                        kind: .nestedTooDeep, at: index)
                }
                switch bytes[index] {
                case 0x7B, 0x5B:
                    let isObject = bytes[index] == 0x7B
                    index += 1
                    skipWhitespace()
                    guard index < bytes.count else { return endOfInput() }
                    if bytes[index] == (isObject ? 0x7D : 0x5D) {
                        index += 1
                        values.append(isObject ? .object([:]) : .array([]))
                        state = .afterValue
                    } else {
                        frames.append(
                            Frame(isObject: isObject, valuesStart: values.count, keysStart: keys.count))
                        state = isObject ? .key : .value
                    }
                case 0x22:
                    switch scanString() {
                    case .success(let text): values.append(.string(text))
                    case .failure(let problem): return problem
                    }
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
                switch scanString() {
                case .success(let key):
                    frames[frames.count - 1].key = key
                    keys.append(key)
                case .failure(let problem): return problem
                }
                skipWhitespace()
                guard index < bytes.count else { return endOfInput() }
                guard bytes[index] == 0x3A else {
                    return problem("expected ':' after a key but found \(describe(bytes[index]))")
                }
                index += 1
                state = .value
            case .afterValue:
                guard let top = frames.last else {
                    guard index < bytes.count else { return nil }
                    return problem("unexpected \(describe(bytes[index])) after the end of the JSON document")
                }
                guard index < bytes.count else { return endOfInput() }
                let byte = bytes[index]
                index += 1
                switch (top.isObject, byte) {
                case (true, 0x2C):
                    frames[frames.count - 1].key = nil
                    state = .key
                case (false, 0x2C):
                    frames[frames.count - 1].index += 1
                    state = .value
                case (true, 0x7D), (false, 0x5D):
                    close(frames.removeLast())
                default:
                    index -= 1
                    let expected = top.isObject ? "',' or '}'" : "',' or ']'"
                    return problem("expected \(expected) but found \(describe(byte))")
                }
            }
        }
    }

    /// Turns the values read inside `frame` into its array or object.
    private mutating func close(_ frame: Frame) {
        let elements = Array(values[frame.valuesStart...])
        values.removeSubrange(frame.valuesStart...)
        if frame.isObject {
            // A repeated key keeps its last value, as `JSONDecoder` does.
            let members = Dictionary(zip(keys[frame.keysStart...], elements)) { _, last in last }
            keys.removeSubrange(frame.keysStart...)
            values.append(.object(members))
        } else {
            values.append(.array(elements))
        }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) {
            index += 1
        }
    }

    private mutating func scanNumber() -> Problem? {
        let start = index
        if let problem = scanNumberSyntax() { return problem }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let number = Double(text), number.isFinite else {
            return make(
                "the number \(text.prefix(40)) is too large for a 64-bit floating-point number",
                kind: .invalidValue, at: start)
        }
        let decimal = Decimal(string: text, locale: Self.posix)
        if decimal == nil, decimalNumbers {
            return make(
                "the number \(text.prefix(40)) is beyond the range of a decimal number", kind: .invalidValue,
                at: start)
        }
        values.append(.number(decimal ?? 0))
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
        for (literal, value) in [("true", ReplayJSON.bool(true)), ("false", .bool(false)), ("null", .null)]
        where bytes[index] == literal.utf8.first {
            let expected = Array(literal.utf8)
            let available = bytes[index..<min(bytes.count, index + expected.count)]
            guard available.elementsEqual(expected.prefix(available.count)) else { break }
            guard available.count == expected.count else {
                index = bytes.count
                return endOfInput()
            }
            index += expected.count
            values.append(value)
            return nil
        }
        return problem("unexpected \(describe(bytes[index])) where a value should start")
    }

    func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte)
            ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    func endOfInput() -> Problem {
        make("the JSON ends early, inside an unfinished value", kind: .truncated, at: bytes.count)
    }

    func problem(_ reason: String) -> Problem {
        make(reason, kind: .notJSON, at: index)
    }

    private func make(_ reason: String, kind: HARError.Code, at offset: Int) -> Problem {
        var line = 1
        var lineStart = 0
        for position in 0..<min(offset, bytes.count) where bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        var path: [HARPathComponent] = []
        for frame in frames {
            if frame.isObject {
                if let key = frame.key { path.append(.key(key)) }
            } else {
                path.append(.index(frame.index))
            }
        }
        // Past a few levels a path only repeats itself: keep where the deep part starts.
        if kind == .nestedTooDeep { path = Array(path.prefix(8)) }
        return Problem(
            reason: reason, kind: kind, offset: offset, line: line, column: offset - lineStart + 1, path: path
        )
    }
}
