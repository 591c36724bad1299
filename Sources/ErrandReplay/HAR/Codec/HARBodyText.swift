import Foundation

/// Turns HAR body `text` (with or without `"encoding": "base64"`) into bytes and back.
///
/// The reading rule for text without an encoding is documented on ``HAR/PostData/body``; it
/// applies to request and response bodies alike. The writing rule: a body that is UTF-8 text
/// (no control characters but tab, line feed and carriage return) is written as that text; a
/// `charset=iso-8859-1` body as its Latin-1 text; anything else as base64. A body is written
/// as text only if reading that text back gives the same bytes, so a file Errand writes is
/// never ambiguous and write → read → write is byte-identical.
enum HARBodyText {
    /// Why a body's text could not be decoded.
    enum Failure: Error {
        /// `encoding` says base64 and the text is not base64.
        case invalidBase64
        /// `encoding` names something other than base64.
        case unsupportedEncoding(String)
    }

    /// The bytes a body's `text` and `encoding` stand for.
    static func decode(text: String, encoding: String?, mimeType: String) -> Result<Data, Failure> {
        guard let encoding, !encoding.isEmpty else {
            return .success(bytes(ofUnencodedText: text, mimeType: mimeType))
        }
        guard HARCaseInsensitive.equal(encoding, "base64") else {
            return .failure(.unsupportedEncoding(encoding))
        }
        guard let data = base64Decoded(text) else { return .failure(.invalidBase64) }
        return .success(data)
    }

    /// The `text` and `encoding` to write for a body.
    static func encode(_ body: Data, mimeType: String) -> (text: String, encoding: String?) {
        if let text = utf8String(body), isPlainText(text),
            bytes(ofUnencodedText: text, mimeType: mimeType) == body
        {
            return (text, nil)
        }
        if MIMEType(mimeType).charsetIsLatin1 {
            var text = ""
            text.unicodeScalars.append(contentsOf: body.map { Unicode.Scalar($0) })
            if isPlainText(text), bytes(ofUnencodedText: text, mimeType: mimeType) == body {
                return (text, nil)
            }
        }
        return (body.base64EncodedString(), "base64")
    }

    /// The string a body spells in UTF-8, or `nil` when it is not valid UTF-8.
    static func utf8String(_ body: Data) -> String? {
        var iterator = body.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .emptyInput: return String(decoding: body, as: UTF8.self)
            case .error: return nil
            }
        }
    }

    /// The bytes of body text written without an encoding; see ``HAR/PostData/body``.
    static func bytes(ofUnencodedText text: String, mimeType: String) -> Data {
        var highest: UInt32 = 0
        var hasControl = false
        for scalar in text.unicodeScalars {
            highest = max(highest, scalar.value)
            hasControl = hasControl || isBinaryControl(scalar.value)
        }
        if highest > 0xFF || highest < 0x80 {
            return Data(text.utf8)
        }
        let type = MIMEType(mimeType)
        if type.charsetIsUTF8 {
            return Data(text.utf8)
        }
        let latin1 = Data(text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
        if type.charsetIsLatin1 {
            return latin1
        }
        if type.isJSON {
            return Data(text.utf8)
        }
        if hasControl || utf8String(latin1) != nil {
            return latin1
        }
        return Data(text.utf8)
    }

    /// Whether text holds no control character but tab, line feed and carriage return.
    private static func isPlainText(_ text: String) -> Bool {
        !text.unicodeScalars.contains { isBinaryControl($0.value) }
    }

    /// C0 controls other than tab, line feed and carriage return; DEL; C1 controls.
    private static func isBinaryControl(_ value: UInt32) -> Bool {
        (value < 0x20 && value != 0x09 && value != 0x0A && value != 0x0D) || (0x7F...0x9F).contains(value)
    }

    /// Base64 with line breaks and spaces ignored and missing padding tolerated.
    private static func base64Decoded(_ text: String) -> Data? {
        // Most files hold plain padded base64: decode it directly, without a pass per character.
        if let data = Data(base64Encoded: text) {
            return data
        }
        var compact = text.filter { !$0.isWhitespace }
        let remainder = compact.utf8.count % 4
        if remainder == 1 {
            return nil
        }
        if remainder > 0 {
            compact += String(repeating: "=", count: 4 - remainder)
        }
        return Data(base64Encoded: compact)
    }

    /// The parts of a MIME type the body rules look at.
    private struct MIMEType {
        let essence: String
        let charset: String?

        init(_ text: String) {
            let parts = text.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            essence = HARCaseInsensitive.key(parts.first ?? "")
            charset =
                parts.dropFirst().lazy.compactMap { parameter -> String? in
                    let pair = parameter.split(separator: "=", maxSplits: 1).map(String.init)
                    guard pair.count == 2,
                        HARCaseInsensitive.equal(pair[0].trimmingCharacters(in: .whitespaces), "charset")
                    else { return nil }
                    let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"' "))
                    return HARCaseInsensitive.key(value)
                }.first
        }

        var charsetIsUTF8: Bool {
            charset == "utf-8" || charset == "utf8"
        }

        var charsetIsLatin1: Bool {
            guard let charset else { return false }
            return [
                "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1", "cp819", "windows-1252",
                "cp1252",
            ].contains(charset)
        }

        /// `application/json`, `text/json` and structured `+json` types such as `problem+json`.
        var isJSON: Bool {
            essence.hasSuffix("/json") || essence.hasSuffix("+json")
        }
    }
}
