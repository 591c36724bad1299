import Foundation

/// Turns a body into text with the charset its `Content-Type` names: strictly, with the byte
/// offset of the first byte that is not valid in that charset, or lossily, with U+FFFD.
///
/// The charsets are decoded here rather than by `String(data:encoding:)`, because Foundation
/// only says whether decoding failed, not where, and on Linux it does not agree with Darwin on
/// undefined windows-1252 bytes or on UTF-16 without a byte order mark.
enum TextDecoding {
    /// A charset Errand decodes.
    enum Charset: Equatable {
        case utf8
        /// UTF-16 whose byte order comes from the byte order mark, big-endian without one.
        case utf16
        case utf16LittleEndian
        case utf16BigEndian
        case latin1
        case windows1252
        case ascii

        /// The name used in messages.
        var name: String {
            switch self {
            case .utf8: "UTF-8"
            case .utf16: "UTF-16"
            case .utf16LittleEndian: "UTF-16LE"
            case .utf16BigEndian: "UTF-16BE"
            case .latin1: "ISO-8859-1"
            case .windows1252: "windows-1252"
            case .ascii: "US-ASCII"
            }
        }

        /// The charset for an IANA name or alias, ignoring case; `nil` for one not decoded here.
        init?(label: String) {
            switch label.lowercased() {
            case "utf-8", "utf8", "unicode-1-1-utf-8": self = .utf8
            case "utf-16", "utf16", "ucs-2", "csunicode": self = .utf16
            case "utf-16le", "utf16le": self = .utf16LittleEndian
            case "utf-16be", "utf16be": self = .utf16BigEndian
            case "iso-8859-1", "iso8859-1", "iso_8859-1", "iso_8859-1:1987", "latin1", "latin-1", "l1",
                "cp819", "ibm819", "iso-ir-100", "csisolatin1":
                self = .latin1
            case "windows-1252", "cp1252", "x-cp1252": self = .windows1252
            case "us-ascii", "ascii", "us", "ansi_x3.4-1968", "iso646-us", "iso-ir-6", "csascii":
                self = .ascii
            default: return nil
            }
        }

        /// Whether this is UTF-8 or a subset of it, so the bytes are already UTF-8 when valid.
        var isUTF8Compatible: Bool { self == .utf8 || self == .ascii }
    }

    /// Why a body is not text in its charset.
    struct Failure: Error, Equatable {
        /// The offset of the first byte that could not be decoded, when there is one.
        let offset: Int?
        /// What was wrong, as the rest of a sentence that begins "The body is not …".
        let reason: String
    }

    /// The `charset` parameter of a `Content-Type` value: unquoted, lowercased; `nil` when absent.
    static func charsetLabel(inContentType contentType: String?) -> String? {
        // Most types (`application/json`) have no parameters at all.
        guard let contentType, contentType.utf8.contains(UInt8(ascii: ";")) else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2,
                parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset"
            else { continue }
            var value = parts[1].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "\\", with: "")
            }
            return value.isEmpty ? nil : value.lowercased()
        }
        return nil
    }

    /// Decodes `body` strictly: every byte must be valid in `charset`.
    ///
    /// A byte order mark is removed; for UTF-16 it gives the byte order, and with no declared
    /// charset it picks UTF-8 or UTF-16.
    static func decode(_ body: Data, as charset: Charset?) -> Result<String, Failure> {
        decode(body, as: charset, lossy: false)
    }

    /// Decodes `body`, putting U+FFFD where a byte is not valid in `charset`.
    static func decodeLossily(_ body: Data, as charset: Charset?) -> String {
        (try? decode(body, as: charset, lossy: true).get()) ?? String(decoding: body, as: UTF8.self)
    }

    private static func decode(_ body: Data, as declared: Charset?, lossy: Bool) -> Result<String, Failure> {
        let bytes = [UInt8](body)
        let (charset, bomLength) = sniff(bytes, declared: declared)
        let content = bytes[bomLength...]
        switch charset {
        case .utf8:
            return utf8(content, base: bomLength, lossy: lossy)
        case .utf16, .utf16BigEndian:
            return utf16(content, bigEndian: true, base: bomLength, lossy: lossy)
        case .utf16LittleEndian:
            return utf16(content, bigEndian: false, base: bomLength, lossy: lossy)
        case .latin1:
            return .success(String(String.UnicodeScalarView(content.map { Unicode.Scalar($0) })))
        case .windows1252, .ascii:
            return singleByte(content, charset: charset, lossy: lossy)
        }
    }

    /// The charset to decode with after looking at a byte order mark, and the mark's length.
    private static func sniff(_ bytes: [UInt8], declared: Charset?) -> (Charset, Int) {
        let utf8Mark = bytes.starts(with: [0xEF, 0xBB, 0xBF])
        let bigEndianMark = bytes.starts(with: [0xFE, 0xFF])
        let littleEndianMark = bytes.starts(with: [0xFF, 0xFE])
        switch declared {
        case nil where utf8Mark, .utf8 where utf8Mark: return (.utf8, 3)
        case nil where bigEndianMark, .utf16 where bigEndianMark, .utf16BigEndian where bigEndianMark:
            return (.utf16BigEndian, 2)
        case nil where littleEndianMark, .utf16 where littleEndianMark,
            .utf16LittleEndian where littleEndianMark:
            return (.utf16LittleEndian, 2)
        case nil: return (.utf8, 0)
        case .some(let charset): return (charset, 0)
        }
    }

    private static func utf8(_ bytes: ArraySlice<UInt8>, base: Int, lossy: Bool) -> Result<String, Failure> {
        if let text = String(validating: bytes, as: UTF8.self) { return .success(text) }
        if lossy { return .success(String(decoding: bytes, as: UTF8.self)) }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = base
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar):
                offset += scalar.count
            case .error(let length):
                let byte = bytes[bytes.startIndex + offset - base]
                let reason =
                    offset - base + length >= bytes.count && byte >= 0xC2
                    ? "the body ends inside a UTF-8 sequence"
                    : "byte \(hex(byte)) does not begin a valid UTF-8 sequence"
                return .failure(
                    Failure(offset: offset, reason: "valid UTF-8: \(reason) at byte offset \(offset)"))
            case .emptyInput:
                return .success(String(decoding: bytes, as: UTF8.self))
            }
        }
    }

    private static func utf16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool, base: Int, lossy: Bool)
        -> Result<String, Failure>
    {
        let name = bigEndian ? "UTF-16BE" : "UTF-16LE"
        if bytes.count % 2 != 0, !lossy {
            let offset = base + bytes.count - 1
            return .failure(
                Failure(
                    offset: offset,
                    reason: "valid \(name): it has an odd number of bytes, the last at byte offset \(offset)")
            )
        }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            let first = UInt16(bytes[index])
            let second = UInt16(bytes[index + 1])
            units.append(bigEndian ? first << 8 | second : second << 8 | first)
            index += 2
        }
        let trailing = bytes.count % 2 != 0 ? "\u{FFFD}" : ""
        if lossy { return .success(String(decoding: units, as: UTF16.self) + trailing) }
        var parser = Unicode.UTF16.ForwardParser()
        var iterator = units.makeIterator()
        var unitOffset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar):
                unitOffset += scalar.count
            case .error:
                let offset = base + unitOffset * 2
                return .failure(
                    Failure(
                        offset: offset,
                        reason: "valid \(name): an unpaired surrogate at byte offset \(offset)"))
            case .emptyInput:
                return .success(String(decoding: units, as: UTF16.self))
            }
        }
    }

    private static func singleByte(_ bytes: ArraySlice<UInt8>, charset: Charset, lossy: Bool)
        -> Result<String, Failure>
    {
        var scalars = String.UnicodeScalarView()
        for (position, byte) in bytes.enumerated() {
            if let scalar = scalar(for: byte, in: charset) {
                scalars.append(scalar)
            } else if lossy {
                scalars.append("\u{FFFD}")
            } else {
                let what = charset == .ascii ? "is not ASCII" : "is not defined in \(charset.name)"
                return .failure(
                    Failure(
                        offset: position,
                        reason: "valid \(charset.name): byte \(hex(byte)) \(what), at byte offset \(position)"
                    ))
            }
        }
        return .success(String(scalars))
    }

    /// The character a byte stands for in a single-byte charset, or `nil` when it has none.
    private static func scalar(for byte: UInt8, in charset: Charset) -> Unicode.Scalar? {
        if byte < 0x80 { return Unicode.Scalar(byte) }
        guard charset == .windows1252 else { return charset == .latin1 ? Unicode.Scalar(byte) : nil }
        guard byte < 0xA0 else { return Unicode.Scalar(byte) }
        let value = windows1252High[Int(byte - 0x80)]
        return value == 0 ? nil : Unicode.Scalar(value)
    }

    /// windows-1252's characters for 0x80-0x9F; 0 marks the five bytes it leaves undefined.
    private static let windows1252High: [UInt32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ]

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "0x" + (digits.count == 1 ? "0" + digits : digits)
    }
}
