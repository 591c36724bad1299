import Foundation

/// Percent-encoding for query strings and form bodies, byte by byte (this runs for every request).
///
/// The one encoder and decoder of the package: ErrandReplay reads and writes HAR query strings
/// and form bodies with it too.
package enum PercentEncoding {
    /// Escapes one name or value: everything but RFC 3986 unreserved characters, so `+`, `&`,
    /// `=`, space and non-ASCII text arrive exactly as sent whatever the server's form parser
    /// does with `+`.
    ///
    /// - Parameter string: A name or a value, as the caller wrote it.
    /// - Returns: The text with every byte but `A-Z a-z 0-9 - . _ ~` written `%XX` (upper case).
    package static func escape(_ string: String) -> String {
        var output: [UInt8] = []
        var clean = true
        for byte in string.utf8 {
            if isUnreserved(byte) {
                if !clean { output.append(byte) }
                continue
            }
            if clean {
                clean = false
                output.reserveCapacity(string.utf8.count + 16)
                output.append(contentsOf: string.utf8.prefix { isUnreserved($0) })
            }
            appendEscape(of: byte, to: &output)
        }
        return clean ? string : String(decoding: output, as: UTF8.self)
    }

    /// `name=value&name2=value2`, in order; an item with a `nil` value is its name alone.
    static func queryString(_ items: [URLQueryItem]) -> String {
        items.map { item in
            guard let value = item.value else { return escape(item.name) }
            return escape(item.name) + "=" + escape(value)
        }
        .joined(separator: "&")
    }

    /// The items of an escaped query string, decoded; `+` stays a `+` (as `URLComponents` reads it).
    static func queryItems(in query: String) -> [URLQueryItem] {
        guard !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            guard let equals = pair.firstIndex(of: "=") else {
                return URLQueryItem(name: unescape(pair), value: nil)
            }
            return URLQueryItem(
                name: unescape(pair[..<equals]), value: unescape(pair[pair.index(after: equals)...]))
        }
    }

    /// Decodes `%XX` escapes; a `%` without two hex digits stays as it is.
    ///
    /// - Parameters:
    ///   - text: Escaped text, such as a query item's name or value.
    ///   - plusIsSpace: Whether `+` means a space, as in form bodies; URLs keep `+` literal.
    /// - Returns: The decoded text; bytes that are not UTF-8 become U+FFFD.
    package static func unescape(_ text: Substring, plusIsSpace: Bool = false) -> String {
        guard
            text.utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) })
        else { return String(text) }
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(
                    plusIsSpace && bytes[index] == UInt8(ascii: "+") ? UInt8(ascii: " ") : bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends `%XX` for `byte`, with upper-case hex digits.
    static func appendEscape(of byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "%"))
        output.append(hexDigits[Int(byte >> 4)])
        output.append(hexDigits[Int(byte & 0x0F)])
    }

    /// A byte as an error message shows it: a printable character in quotes, anything else in hex.
    static func shown(_ byte: UInt8) -> String {
        byte > 0x20 && byte < 0x7F ? "\"\(Character(Unicode.Scalar(byte)))\"" : "byte 0x" + hex(byte)
    }

    /// Two upper-case hex digits.
    package static func hex(_ byte: UInt8) -> String {
        String(decoding: [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]], as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
