import Foundation

extension SecretSpelling {
    /// RFC 3986 unreserved characters, the only ones left as they are by a strict encoder.
    static let unreserved = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    /// The JSON-escaped spellings of `text`: escaped once or twice, with `/` escaped or not,
    /// and with `\u` escapes in lowercase or uppercase hex.
    static func jsonSpellings(of text: String) -> [String] {
        var result: [String] = []
        for slash in [false, true] {
            let once = jsonEscaped(text, slash: slash)
            result += [once, jsonEscaped(once, slash: false), jsonEscaped(once, slash: true)]
        }
        for uppercase in [false, true] {
            let once = unicodeEscaped(text, uppercase: uppercase)
            result += [once, jsonEscaped(once, slash: false)]
        }
        return result
    }

    /// The percent-encoded spellings of `text`: every byte but the unreserved ones escaped,
    /// Foundation's query encoding, Python's `quote` (which keeps `/`), and form encoding
    /// (space as `+`).
    static func percentSpellings(of text: String) -> [String] {
        [
            percentEncoded(text, allowed: unreserved), percentEncoded(text, allowed: .urlQueryAllowed),
            percentEncoded(text, allowed: unreserved.union(CharacterSet(charactersIn: "/"))),
            percentEncoded(text, allowed: unreserved.union(CharacterSet(charactersIn: "/:@"))),
            percentEncoded(text, allowed: unreserved.union([" "])).replacingOccurrences(of: " ", with: "+"),
            percentEncoded(text, allowed: unreserved.union(CharacterSet(charactersIn: "/ ")))
                .replacingOccurrences(of: " ", with: "+"),
        ]
    }

    /// The text as inside a JSON string, with `\u` escapes for every control but LF, CR and
    /// tab; with `slash`, `/` is written `\/` as some servers do.
    static func jsonEscaped(_ text: String, slash: Bool) -> String {
        JSONString.escaped(text, slash: slash, shortControls: false)
    }

    /// The text as an ASCII-only JSON encoder writes it: non-ASCII as `\uXXXX` (surrogate pairs
    /// above the BMP), and `<`, `>`, `&`, `'`, `=` as an HTML-safe encoder does.
    static func unicodeEscaped(_ text: String, uppercase: Bool) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII, !"<>&'=".unicodeScalars.contains(scalar) {
                output += jsonEscaped(String(scalar), slash: false)
            } else {
                for unit in String(scalar).utf16 {
                    output += unicodeEscape(unit, uppercase: uppercase)
                }
            }
        }
        return output
    }

    private static func unicodeEscape(_ unit: UInt16, uppercase: Bool) -> String {
        let hex = String(unit, radix: 16, uppercase: uppercase)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// The text percent-encoded, leaving `allowed` as it is.
    static func percentEncoded(_ text: String, allowed: CharacterSet) -> String {
        text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// The base64 characters that `bytes` give whatever their offset in a longer base64 text:
    /// for each of the three alignments, the characters made of the secret's bits alone, in the
    /// standard and the URL-safe alphabet.
    static func base64Fragments(of bytes: [UInt8]) -> [String] {
        var fragments: [String] = []
        for offset in 0..<3 {
            let encoded = Array(Data(Array(repeating: 0, count: offset) + bytes).base64EncodedString().utf8)
            let start = (8 * offset + 5) / 6
            let end = min(encoded.count, 8 * (offset + bytes.count) / 6)
            guard end - start >= anywhereLength else { continue }
            let standard = String(decoding: encoded[start..<end], as: UTF8.self)
            fragments.append(standard)
            fragments.append(
                standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_"))
        }
        return fragments
    }

    /// The UTF-8 text of base64 credentials, padded or not, standard or URL-safe.
    static func decodedBase64(_ text: String) -> String? {
        var normalized = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(
            of: "_", with: "/")
        while normalized.utf8.count % 4 != 0 { normalized += "=" }
        guard let data = Data(base64Encoded: normalized) else { return nil }
        return String(data: data, encoding: .utf8)
    }
}
