import Errand
import Foundation

/// A model type that the writer turns into JSON.
///
/// Internal, like ``HARDecodable``: the strict writer is the only way out of the model.
protocol HAREncodable {
    /// The value as the writer writes it, members in HAR 1.2 order.
    var harJSON: HARJSON { get }
}

/// A JSON value with ordered object members, built by the writer and serialized by hand: the
/// second of ErrandReplay's two JSON layers (the first is the reader, ``JSONReader``).
///
/// Why a writer of its own and not `JSONEncoder`: hand serialization gives what `JSONEncoder`
/// does not promise: the key order of the HAR 1.2 specification (so `method` and `url` come first
/// in a request), the same bytes on every platform and Foundation version, and errors that name
/// the path of a bad value. Its values keep their order, which ``ReplayJSON`` (compared by
/// meaning) does not, so the two are separate types.
enum HARJSON {
    /// An object whose members keep the order they were added in.
    case object([(key: String, value: HARJSON)])
    /// An array.
    case array([HARJSON])
    /// A string.
    case string(String)
    /// An integer.
    case integer(Int)
    /// A floating-point number; must be finite to be written.
    case number(Double)
    /// A boolean.
    case bool(Bool)
    /// A value that cannot be written, with the reason; writing it throws.
    case invalid(String)

    /// A timestamp in the normalised form, or an invalid value when the date is out of range.
    static func timestamp(_ date: Date) -> HARJSON {
        guard let text = HARTimestamp.format(date) else {
            return .invalid("the date \(date.timeIntervalSince1970) s since 1970 is outside years 0 to 9999")
        }
        return .string(text)
    }
}

/// Builds an object member by member, in order.
struct HARJSONObject {
    private var members: [(key: String, value: HARJSON)] = []

    /// Appends a member.
    mutating func add(_ key: String, _ value: HARJSON) {
        members.append((key, value))
    }

    /// Appends a string member when the string is not `nil`.
    mutating func add(_ key: String, ifPresent text: String?) {
        if let text {
            members.append((key, .string(text)))
        }
    }

    /// The object built so far.
    var json: HARJSON {
        .object(members)
    }
}

/// Writes a ``HARJSON`` value as pretty-printed UTF-8: two-space indents, `"key": value`,
/// `[]` and `{}` for empty containers, a final newline.
struct HARJSONSerializer {
    private var output: [UInt8] = []
    private var path: [HARPathComponent] = []

    /// Serializes a value.
    ///
    /// - Throws: ``HARError/Code/unencodableValue`` naming the path of a non-finite number or
    ///   an invalid value.
    static func serialize(_ value: HARJSON) throws(HARError) -> Data {
        var serializer = HARJSONSerializer()
        try serializer.write(value, indent: 0)
        serializer.output.append(0x0A)
        return Data(serializer.output)
    }

    private mutating func write(_ value: HARJSON, indent: Int) throws(HARError) {
        switch value {
        case .object(let members):
            guard !members.isEmpty else { return append("{}") }
            append("{\n")
            for offset in members.indices {
                let member = members[offset]
                appendIndent(indent + 1)
                writeString(member.key)
                append(": ")
                path.append(.key(member.key))
                try write(member.value, indent: indent + 1)
                path.removeLast()
                append(offset == members.count - 1 ? "\n" : ",\n")
            }
            appendIndent(indent)
            append("}")
        case .array(let elements):
            guard !elements.isEmpty else { return append("[]") }
            append("[\n")
            for offset in elements.indices {
                appendIndent(indent + 1)
                path.append(.index(offset))
                try write(elements[offset], indent: indent + 1)
                path.removeLast()
                append(offset == elements.count - 1 ? "\n" : ",\n")
            }
            appendIndent(indent)
            append("]")
        case .string(let text):
            writeString(text)
        case .integer(let integer):
            append(String(integer))
        case .number(let number):
            try writeNumber(number)
        case .bool(let flag):
            append(flag ? "true" : "false")
        case .invalid(let reason):
            throw failure(reason)
        }
    }

    private mutating func writeNumber(_ number: Double) throws(HARError) {
        guard number.isFinite else {
            throw failure("\(number) is not a finite number, and JSON has no way to write it")
        }
        if number.rounded() == number, abs(number) < 9_007_199_254_740_992, let integer = Int(exactly: number)
        {
            append(String(integer))
        } else {
            append(number.description)
        }
    }

    private mutating func writeString(_ text: String) {
        output.append(0x22)
        JSONString.append(text, to: &output)
        output.append(0x22)
    }

    private mutating func append(_ text: String) {
        output.append(contentsOf: text.utf8)
    }

    private mutating func appendIndent(_ level: Int) {
        for _ in 0..<level {
            output.append(0x20)
            output.append(0x20)
        }
    }

    private func failure(_ reason: String) -> HARError {
        HARError(
            code: .unencodableValue,
            path: HARPathComponent.format(path),
            entryIndex: HARPathComponent.entryIndex(in: path),
            reason: reason
        )
    }
}
