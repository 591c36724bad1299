/// The body of a JSON string (RFC 8259 §7): the one escaper for JSON the package writes or
/// looks for.
///
/// The HAR writer spells strings with it, the secret scan of a written file looks for values
/// spelled the same way, and the echo check lists the spellings other JSON encoders use (`/`
/// written `\/`, a backspace written `\u0008`) through its options, so no spelling is written
/// twice. Work is on the UTF-8 bytes: everything escaped is ASCII, and other bytes are copied.
package enum JSONString {
    /// Appends `text` as it goes between the quotes of a JSON string.
    ///
    /// A quote, a backslash, LF, CR and tab take their short escapes; every other control below
    /// U+0020 becomes `\u00xx` (lower-case hex), except backspace and form feed, written `\b`
    /// and `\f` unless `shortControls` is `false`.
    ///
    /// - Parameters:
    ///   - text: Any text.
    ///   - output: Where the escaped bytes go.
    ///   - slash: Whether `/` is written `\/`, as some servers write it.
    ///   - shortControls: Whether backspace and form feed take `\b` and `\f`.
    package static func append(
        _ text: String, to output: inout [UInt8], slash: Bool = false, shortControls: Bool = true
    ) {
        var text = text
        text.withUTF8 { bytes in
            // Most strings (base64 bodies, URLs, header values) need no escape: copy them whole.
            guard bytes.contains(where: { needsEscape($0, slash: slash) }) else {
                output.append(contentsOf: bytes)
                return
            }
            for byte in bytes {
                switch byte {
                case 0x22: output.append(contentsOf: #"\""#.utf8)
                case 0x5C: output.append(contentsOf: #"\\"#.utf8)
                case 0x0A: output.append(contentsOf: #"\n"#.utf8)
                case 0x0D: output.append(contentsOf: #"\r"#.utf8)
                case 0x09: output.append(contentsOf: #"\t"#.utf8)
                case 0x08 where shortControls: output.append(contentsOf: #"\b"#.utf8)
                case 0x0C where shortControls: output.append(contentsOf: #"\f"#.utf8)
                case 0x2F where slash: output.append(contentsOf: #"\/"#.utf8)
                case 0x00..<0x20:
                    output.append(contentsOf: #"\u00"#.utf8)
                    output.append(hexDigits[Int(byte >> 4)])
                    output.append(hexDigits[Int(byte & 0x0F)])
                default: output.append(byte)
                }
            }
        }
    }

    /// `text` as it goes between the quotes of a JSON string; the options as in
    /// ``append(_:to:slash:shortControls:)``.
    ///
    /// - Parameters:
    ///   - text: Any text.
    ///   - slash: Whether `/` is written `\/`.
    ///   - shortControls: Whether backspace and form feed take `\b` and `\f`.
    /// - Returns: The escaped text, without the quotes.
    package static func escaped(_ text: String, slash: Bool = false, shortControls: Bool = true) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count + 8)
        append(text, to: &output, slash: slash, shortControls: shortControls)
        return String(decoding: output, as: UTF8.self)
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private static func needsEscape(_ byte: UInt8, slash: Bool) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C || (slash && byte == 0x2F)
    }
}
