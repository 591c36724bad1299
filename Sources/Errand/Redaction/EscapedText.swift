/// The one escaping path for text the library writes for people to read: log lines, error
/// descriptions, reports.
///
/// A caller's path or header and a server's header or body are data, and must never pass for
/// the library's own output: a raw line break in them could start a forged log entry, and an
/// ESC could run a terminal's escape sequence. So every character that moves the cursor, ends
/// a line, or reorders what a reader sees is written as a visible escape: `\r`, `\n`, `\t`, `\0`,
/// and `\u{1B}` style for the rest (C0 and C1 controls, DEL, the Unicode line and paragraph
/// separators, the bidirectional formatting characters). Backslashes are kept as they are: a
/// literal `\n` cannot start a line, and JSON's own escapes stay readable.
package enum EscapedText {
    /// `text` as one line: every control character escaped, so nothing in it can end the line.
    ///
    /// - Parameter text: Text from a caller or a server.
    /// - Returns: The text with no line break, no control character and no bidi override left.
    package static func line(_ text: some StringProtocol) -> String {
        if isPlain(text) { return String(text) }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars { append(scalar, to: &result) }
        return result
    }

    /// `text` in double quotes as one line, for a value named inside a sentence: escaped as in
    /// ``line(_:)``, and a quote or a backslash escaped too, so where the value ends is plain.
    ///
    /// - Parameter text: Text from a caller or a server, such as a header name.
    /// - Returns: The text between `"` and `"`, with no raw control character and no bare quote.
    package static func quoted(_ text: some StringProtocol) -> String {
        var result = "\""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"", "\\": result += "\\" + String(scalar)
            default: append(scalar, to: &result)
            }
        }
        return result + "\""
    }

    /// `text` as lines of its own under an entry, each starting with `indent`.
    ///
    /// Line breaks (LF, CR LF) start a new indented line, so a multi-line body keeps its shape;
    /// a lone CR and every other control character is escaped as in ``line(_:)``, so no line can
    /// begin without the indent.
    ///
    /// - Parameters:
    ///   - text: Text from a caller or a server, such as a body.
    ///   - indent: What starts every line; two spaces under a log entry.
    ///   - firstIndent: What starts the first line instead, when the text goes on a line that
    ///     has begun already (an error's message after its code); `indent` when omitted.
    /// - Returns: The lines, joined by `\n`, each starting with `indent`.
    package static func block(
        _ text: some StringProtocol, indent: String = "  ", firstIndent: String? = nil
    ) -> String {
        var result = firstIndent ?? indent
        result.reserveCapacity(text.utf8.count + indent.utf8.count + 8)
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            if scalar == "\r", pending == "\n" { continue }
            if scalar == "\n" {
                result += "\n" + indent
            } else {
                append(scalar, to: &result)
            }
        }
        return result
    }

    /// Whether `scalar` must be escaped: a C0 or C1 control, DEL, a line or paragraph separator,
    /// or a bidirectional formatting character.
    ///
    /// - Parameter scalar: A Unicode scalar.
    /// - Returns: `true` when writing it raw could move the cursor, end a line or reorder text.
    package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x2028, 0x2029: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Whether `text` is printable ASCII throughout, the common case that needs no work.
    private static func isPlain(_ text: some StringProtocol) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    private static func append(_ scalar: Unicode.Scalar, to result: inout String) {
        guard needsEscape(scalar) else {
            result.unicodeScalars.append(scalar)
            return
        }
        switch scalar {
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        case "\0": result += "\\0"
        default: result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        }
    }
}
