import Foundation

/// Just enough of a DER reader to find a certificate's public key info.
///
/// Certificates come from servers, so every length is checked against what is left: malformed,
/// truncated or hostile input gives `nil`, never a crash or an out-of-bounds read.
struct DERReader {
    /// One type-length-value element.
    struct Element {
        /// The tag byte (single-byte tags only: all that X.509 uses at this level).
        let tag: UInt8
        /// The whole element, tag and length included.
        let encoded: Data
        /// The element's contents.
        let contents: Data
    }

    private let bytes: [UInt8]
    private var offset = 0

    init(_ data: Data) {
        bytes = [UInt8](data)
    }

    /// Whether all the input has been read.
    var isAtEnd: Bool { offset >= bytes.count }

    /// Reads the next element, or `nil` when the input is malformed or used up.
    mutating func next() -> Element? {
        let start = offset
        guard start < bytes.count else { return nil }
        let tag = bytes[start]
        // High-tag-number form (low five bits all set) does not occur where we read.
        guard tag & 0x1f != 0x1f, start + 1 < bytes.count else { return nil }
        var cursor = start + 1
        let first = bytes[cursor]
        cursor += 1
        // UInt64, so four length bytes cannot overflow where Int has 32 bits.
        var length: UInt64 = 0
        if first < 0x80 {
            length = UInt64(first)
        } else {
            let count = Int(first & 0x7f)
            // Indefinite length (0x80) is not DER; more than four length bytes is not a certificate.
            guard count >= 1, count <= 4, cursor + count <= bytes.count else { return nil }
            for byte in bytes[cursor..<cursor + count] { length = length << 8 | UInt64(byte) }
            cursor += count
        }
        guard length <= UInt64(bytes.count - cursor) else { return nil }
        let end = cursor + Int(length)
        offset = end
        return Element(
            tag: tag, encoded: Data(bytes[start..<offset]), contents: Data(bytes[cursor..<offset]))
    }

    /// The full SubjectPublicKeyInfo element (tag and length included) of a DER X.509 certificate.
    ///
    /// Certificate ::= SEQUENCE { tbsCertificate, … }; TBSCertificate ::= SEQUENCE { [0] version
    /// (optional), serialNumber, signature, issuer, validity, subject, subjectPublicKeyInfo, … }.
    static func subjectPublicKeyInfo(ofCertificate certificate: Data) -> Data? {
        let sequence: UInt8 = 0x30
        var outer = DERReader(certificate)
        guard let whole = outer.next(), whole.tag == sequence, outer.isAtEnd else { return nil }
        var fields = DERReader(whole.contents)
        guard let tbs = fields.next(), tbs.tag == sequence else { return nil }
        var reader = DERReader(tbs.contents)
        guard var element = reader.next() else { return nil }
        if element.tag == 0xa0 {
            guard let serial = reader.next() else { return nil }
            element = serial
        }
        guard element.tag == 0x02 else { return nil }
        // signature, issuer, validity, subject: each a SEQUENCE.
        for _ in 0..<4 {
            guard let skipped = reader.next(), skipped.tag == sequence else { return nil }
        }
        guard let keyInfo = reader.next(), keyInfo.tag == sequence else { return nil }
        // SubjectPublicKeyInfo ::= SEQUENCE { algorithm SEQUENCE, subjectPublicKey BIT STRING }
        var parts = DERReader(keyInfo.contents)
        guard let algorithm = parts.next(), algorithm.tag == sequence,
            let key = parts.next(), key.tag == 0x03, parts.isAtEnd
        else { return nil }
        return keyInfo.encoded
    }
}
