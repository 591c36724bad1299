import Foundation

// The checks of `validate()` on what goes into the request line and the header block.
//
// A method or header name holding CR LF or a space would let a caller's string write its own
// request line or header fields (request smuggling, header injection), and FoundationNetworking
// drops a field whose value holds CR LF without a word. So every dispatcher refuses them here,
// before anything is sent. Byte loops over UTF-8: this runs for every request.
extension RequestData {
    /// Refuses a method or header field that is not valid HTTP, and a timeout that is not a duration.
    func validateHead() throws(NetworkError) {
        if let problem = Self.tokenProblem(method.rawValue) {
            throw invalid(
                "The method \(EscapedText.quoted(method.rawValue)) is not a valid HTTP method: \(problem).")
        }
        for field in headers {
            if let problem = Self.tokenProblem(field.name) {
                throw invalid(
                    "The header name \(EscapedText.quoted(field.name)) is not a valid field name: \(problem)."
                )
            }
            // The value itself is never shown: it may be a credential.
            if let problem = Self.fieldValueProblem(field.value) {
                throw invalid(
                    "The value of header \(EscapedText.quoted(field.name)) cannot be sent: \(problem).")
            }
        }
        if let body, !headers.contains("Content-Type"), let problem = Self.fieldValueProblem(body.contentType)
        {
            throw invalid("The content type of the \(body.kind) body cannot be sent: \(problem).")
        }
        if let timeout, let problem = Self.timeoutProblem(timeout) {
            throw invalid("The request's timeout \(timeout) is not a valid deadline: \(problem).")
        }
    }

    /// Why `seconds` is not a deadline, or `nil` when it is one.
    ///
    /// `.infinity` (and anything over about 290 years) means no deadline. Zero is refused
    /// rather than read as "expire at once" or "never": both readings exist, so neither is guessed.
    static func timeoutProblem(_ seconds: TimeInterval) -> String? {
        if seconds.isNaN { return "it is NaN; give a number of seconds, or .infinity for no deadline" }
        if seconds < 0 { return "it is negative; give a number of seconds, or .infinity for no deadline" }
        if seconds == 0 {
            return "it is zero; give a positive number of seconds, or .infinity for no deadline"
        }
        return nil
    }

    private func invalid(_ message: String) -> NetworkError {
        NetworkError(code: .invalidRequest, message: message, request: self)
    }

    /// Why `text` is not an RFC 9110 token (`1*tchar`), or `nil` when it is one.
    private static func tokenProblem(_ text: String) -> String? {
        if text.utf8.isEmpty { return "it is empty" }
        guard let (_, byte) = firstByte(of: text, where: { !isTokenByte($0) }) else { return nil }
        return "it holds \(describe(byte)), and only letters, digits and !#$%&'*+-.^_`|~ are allowed"
    }

    /// Why `text` is not an RFC 9110 field value, or `nil` when it is one: visible characters,
    /// space, tab and non-ASCII text are allowed; CR, LF, NUL and other control characters are not.
    static func fieldValueProblem(_ text: String) -> String? {
        guard let (offset, byte) = firstByte(of: text, where: isForbiddenInFieldValue) else { return nil }
        return
            "it holds \(describe(byte)) at byte \(offset), a control character a header value may not contain"
    }

    /// The first byte of `text`'s UTF-8 that `matches`, with its offset.
    ///
    /// Read as one buffer of bytes rather than through `String.UTF8View`, whose every step checks
    /// how the string is stored: the method and every header are scanned on every request.
    private static func firstByte(of text: String, where matches: (UInt8) -> Bool) -> (
        offset: Int, byte: UInt8
    )? {
        func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (offset: Int, byte: UInt8)? {
            bytes.firstIndex(where: matches).map { (offset: $0, byte: bytes[$0]) }
        }
        // Native Swift strings lend their bytes as they are; only a bridged one is copied.
        if let found = text.utf8.withContiguousStorageIfAvailable(scan) { return found }
        return Array(text.utf8).withUnsafeBufferPointer(scan)
    }

    /// CR, LF, NUL and the other control characters but tab.
    private static func isForbiddenInFieldValue(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09) || byte == 0x7F
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// A byte named for a message: `CR (\r)`, `a space`, `"@"`, `byte 0xC3`.
    private static func describe(_ byte: UInt8) -> String {
        switch byte {
        case 0x0D: "CR (\\r)"
        case 0x0A: "LF (\\n)"
        case 0x00: "NUL (\\0)"
        case 0x09: "a tab (\\t)"
        case 0x20: "a space"
        case 0x80...: "the non-ASCII byte 0x\(PercentEncoding.hex(byte))"
        case 0x00..<0x20, 0x7F: "the control character \\u{\(PercentEncoding.hex(byte))}"
        default: PercentEncoding.shown(byte)
        }
    }
}
