import Errand
import Foundation

/// Why a HAR file could not be read or written, and where.
///
/// Every failure of the reader and the writer is a `HARError`: garbage input never crashes.
/// Switch on ``code``; read ``path`` (the JSON path, such as
/// `log.entries[3].request.headers[0].value`), ``entryIndex``, ``line`` and ``column`` to find
/// the spot; log ``description``, which says what was wrong, where, and what to do.
public struct HARError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: String, Sendable, Hashable {
        /// The input is not JSON at all, or has a syntax error in the middle.
        case notJSON
        /// The JSON ends early: the file was cut off while being written or copied.
        case truncated
        /// Arrays and objects are nested deeper than a JSON reader accepts (512 levels): the
        /// file is damaged or was not written as HAR.
        case nestedTooDeep
        /// A field holds the wrong kind of JSON value, such as a number where text belongs.
        case wrongType
        /// A field that a HAR cannot do without is missing or `null`.
        case missingField
        /// A field has the right type but an unusable value: a bad date, bad base64.
        case invalidValue
        /// The archive holds a value the writer cannot write, such as an infinite time.
        case unencodableValue
        /// The file could not be read.
        case fileUnreadable
        /// The file could not be written or replaced.
        case fileUnwritable
    }

    /// The kind of failure.
    public var code: Code
    /// Where in the JSON the failure is, such as `log.entries[3].startedDateTime`.
    ///
    /// `nil` for failures outside the JSON (a file that cannot be opened); `""` for the root.
    public var path: String?
    /// The index of the entry (in `log.entries`) that the failure is in, if it is in one.
    public var entryIndex: Int?
    /// The 1-based line of a syntax error or of the point where a truncated file ends.
    public var line: Int?
    /// The 1-based column (in bytes) of a syntax error or of the end of a truncated file.
    public var column: Int?
    /// The file being read or written, when there is one.
    public var file: URL?
    /// What was wrong, in words: `expected a string, found a number`.
    public var reason: String
    /// The error that caused this one, such as the file system's.
    public var underlyingError: (any Error & Sendable)?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - path: The JSON path of the failing field, if any.
    ///   - entryIndex: The index of the failing entry, if any.
    ///   - line: The 1-based line, for syntax errors.
    ///   - column: The 1-based column, for syntax errors.
    ///   - file: The file being read or written.
    ///   - reason: What was wrong.
    ///   - underlyingError: The error that caused this one.
    public init(
        code: Code,
        path: String? = nil,
        entryIndex: Int? = nil,
        line: Int? = nil,
        column: Int? = nil,
        file: URL? = nil,
        reason: String,
        underlyingError: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.path = path
        self.entryIndex = entryIndex
        self.line = line
        self.column = column
        self.file = file
        self.reason = reason
        self.underlyingError = underlyingError
    }

    /// Creates an error at a position given as a coding path.
    init(code: Code, codingPath: [any CodingKey], reason: String) {
        let components = codingPath.map(HARPathComponent.init)
        self.init(
            code: code,
            path: HARPathComponent.format(components),
            entryIndex: HARPathComponent.entryIndex(in: components),
            reason: reason
        )
    }

    /// A description for the person reading the log: what failed, where, why, what to do.
    public var description: String {
        var text = isWriting ? "Cannot write HAR" : "Cannot read HAR"
        if let file {
            text += " file \(EscapedText.line(file.path))"
        }
        var places: [String] = []
        if let line, let column {
            places.append("line \(line), column \(column)")
        }
        if let path {
            places.append(path.isEmpty ? "the top level" : path)
        }
        if let entryIndex {
            places.append("entry \(entryIndex)")
        }
        if !places.isEmpty {
            text += " at " + places.joined(separator: ", ")
        }
        text += ": \(EscapedText.line(reason))."
        if let underlyingError {
            text += " Underlying error: \(EscapedText.line(String(describing: underlyingError)))."
        }
        return text + " " + advice
    }

    private var isWriting: Bool {
        code == .unencodableValue || code == .fileUnwritable
    }

    private var advice: String {
        switch code {
        case .notJSON:
            "The file is not valid JSON there; repair it, or export or record it again as HAR 1.2."
        case .nestedTooDeep:
            "A HAR file never nests this deep; the file is damaged or is not HAR. Export or record it again."
        case .truncated:
            "The file was cut off while being written or copied; restore it or record it again."
        case .wrongType, .missingField, .invalidValue:
            "Fix that field in the file, or record the cassette again."
        case .unencodableValue:
            "Set the field to a value HAR can hold (a finite number, a date in years 0 to 9999)."
        case .fileUnreadable:
            "Check that the file exists and is readable."
        case .fileUnwritable:
            "Check that the folder is writable; the previous file, if any, was left as it was."
        }
    }
}

/// One step of a JSON path: an object key or an array index.
enum HARPathComponent: Equatable {
    /// A key in an object.
    case key(String)
    /// An index in an array.
    case index(Int)

    /// The component for a coding key: arrays use integer keys.
    init(_ key: any CodingKey) {
        if let index = key.intValue {
            self = .index(index)
        } else {
            self = .key(key.stringValue)
        }
    }

    /// Formats a path as `log.entries[3].request`.
    static func format(_ components: [HARPathComponent]) -> String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                text += text.isEmpty ? key : "." + key
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }

    /// The entry index when the path goes through `log.entries[n]`.
    static func entryIndex(in components: [HARPathComponent]) -> Int? {
        guard components.count >= 3, components[0] == .key("log"), components[1] == .key("entries"),
            case .index(let index) = components[2]
        else { return nil }
        return index
    }
}
