import Foundation

extension HAR {
    /// Reads an archive from the bytes of a HAR file, leniently.
    ///
    /// Accepts what real exporters write: HTTP/2 pseudo-headers and lower-case header names,
    /// `-1` sizes, missing optional fields (`pages`, `cache`, parts of `timings`, `cookies`,
    /// `comment`, `postData`, `content.text`), dates with any number of fractional digits and
    /// any offset, base64 bodies, mitmproxy's Latin-1 request bodies, failed requests with
    /// status `0` and `_error`, and any unknown `_`-prefixed field (ignored). A UTF-8 byte
    /// order mark is skipped. Fields that replay does not need are read as best they can be,
    /// or dropped, and never fail the file: `cookies` as one object, header values as arrays
    /// of strings (one field per value), times and sizes as text, a form body saved only as
    /// `params`, a `null` or numeric `startedDateTime`, numbers past `Double`'s range.
    ///
    /// - Parameter data: The file's bytes.
    /// - Throws: ``HARError`` when the bytes are not JSON, are truncated, nest deeper than a
    ///   JSON reader accepts, or a field that matters has the wrong type or an unusable value;
    ///   the error names the JSON path, the entry, and for syntax the line and column.
    public init(data: Data) throws(HARError) {
        self = try HARReader.read(data, file: nil)
    }

    /// Reads an archive from a HAR file, leniently.
    ///
    /// - Parameter url: The file's location.
    /// - Throws: ``HARError`` with ``HARError/Code/fileUnreadable`` when the file cannot be
    ///   read, or any error of ``init(data:)``; the error names the file.
    public init(contentsOf url: URL) throws(HARError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch let error as CocoaError {
            throw HARError(
                code: .fileUnreadable, file: url, reason: "the file cannot be read", underlyingError: error)
        } catch {
            throw HARError(code: .fileUnreadable, file: url, reason: "the file cannot be read (\(error))")
        }
        self = try HARReader.read(data, file: url)
    }
}

/// Runs `JSONDecoder` over the lenient model and turns its errors into ``HARError``s.
enum HARReader {
    /// Decodes an archive, naming `file` in any error.
    static func read(_ data: Data, file: URL?) throws(HARError) -> HAR {
        let input = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data
        guard input.contains(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) else {
            throw HARError(code: .notJSON, path: "", file: file, reason: "the file is empty")
        }
        do {
            return try JSONDecoder().decode(HARDecoded<HAR>.self, from: input).value
        } catch let error as HARError {
            var located = error
            located.file = file
            throw located
        } catch let error as DecodingError {
            var translated = translate(error, input: input)
            translated.file = file
            throw translated
        } catch {
            throw HARError(
                code: .notJSON, path: "", file: file, reason: "the JSON cannot be decoded (\(error))")
        }
    }

    private static func translate(_ error: DecodingError, input: Data) -> HARError {
        switch error {
        case .typeMismatch(let type, let context):
            let found = foundKind(in: context.debugDescription).map { " but found \($0)" } ?? ""
            return HARError(
                code: .wrongType,
                codingPath: context.codingPath,
                reason: "expected \(kind(of: type))\(found)"
            )
        case .valueNotFound(let type, let context):
            return HARError(
                code: .missingField,
                codingPath: context.codingPath,
                reason: "expected \(kind(of: type)) but found null"
            )
        case .keyNotFound(let key, let context):
            return HARError(
                code: .missingField,
                codingPath: context.codingPath + [key],
                reason: "the required field \"\(key.stringValue)\" is missing"
            )
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return syntaxError(in: input, fallback: context.debugDescription)
        case .dataCorrupted(let context):
            return HARError(
                code: .invalidValue, codingPath: context.codingPath, reason: context.debugDescription)
        @unknown default:
            return HARError(code: .notJSON, path: "", reason: "the JSON cannot be decoded (\(error))")
        }
    }

    /// Where and why the bytes are not JSON, from ``JSONReader``: run only
    /// once `JSONDecoder` has failed, since on Linux its message has no position.
    private static func syntaxError(in input: Data, fallback: String) -> HARError {
        guard case .failure(let problem) = JSONReader.read(input, decimalNumbers: false) else {
            return HARError(
                code: .notJSON,
                path: "",
                reason: "the bytes are not valid JSON text (\(fallback)); is the file UTF-8?"
            )
        }
        return HARError(
            code: problem.kind,
            path: HARPathComponent.format(problem.path),
            entryIndex: HARPathComponent.entryIndex(in: problem.path),
            line: problem.line,
            column: problem.column,
            reason: problem.reason
        )
    }

    /// "a string", "a number", … for the Swift type `JSONDecoder` expected.
    private static func kind(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type, is Double.Type: "a number"
        default:
            "\(type)".hasPrefix("Array") ? "an array" : "an object"
        }
    }

    /// The found kind in "Expected to decode X but found a string instead.", in JSON words.
    private static func foundKind(in description: String) -> String? {
        guard let start = description.range(of: "but found "),
            let end = description.range(of: " instead", range: start.upperBound..<description.endIndex)
        else { return nil }
        var found = description[start.upperBound..<end.lowerBound].lowercased()
        for article in ["a ", "an "] where found.hasPrefix(article) {
            found.removeFirst(article.count)
        }
        switch found {
        case "dictionary", "object": return "an object"
        case "array": return "an array"
        case "null": return "null"
        case "bool", "boolean": return "a boolean"
        default: return "a \(found)"
        }
    }
}
