import Foundation

/// A host in the one spelling that pins are written and compared in.
///
/// One server has many spellings: `bücher.example`, `BÜCHER.example.` and
/// `xn--bcher-kva.example`; `[::1]`, `::1` and `[0:0::1]`; `127.0.0.1` and `127.1`. Foundation
/// hands over a connection's host in one of them (Punycode for names, IPv6 without brackets) and
/// a person writes pins in another, so both pass through here before they are compared:
///
/// - A name is mapped as IDNA's UTS #46 maps it (nontransitional, as URL parsers do):
///   compatibility forms folded (`Ａ` is `a`), letters lower-cased, NFC; `。`, `．` and `｡`
///   separate labels as `.` does; one trailing dot (the DNS root) is dropped; and each label
///   that is not ASCII is written in Punycode after `xn--`.
/// - An IPv4 address, in any spelling a resolver reads (`127.1`, `0x7f.0.0.1`, `2130706433`),
///   is written in dotted decimal.
/// - An IPv6 address, with or without brackets, is written as `inet_ntop` writes it (RFC 5952:
///   lower case, the longest run of zero groups as `::`) in brackets: `[2001:db8::1]`. A zone
///   (`%en0`) is dropped, and an IPv4-mapped address (`[::ffff:192.0.2.1]`) is the IPv4 address
///   it reaches.
///
/// What IDNA refuses, and what it maps in ways not certain here, is refused rather than
/// guessed at: control, format, private-use and unassigned characters, spaces, ASCII other than
/// letters, digits, `-` and `_`, a label that starts with a combining mark, Punycode that does
/// not decode to a label in mapped form, labels over 63 bytes and names over 253.
package struct HostName: Hashable, Sendable, CustomStringConvertible {
    /// Why a host has no canonical spelling.
    package struct Refusal: Error, Sendable {
        /// What is wrong, for a sentence that names the host.
        package let reason: String

        init(_ reason: String) { self.reason = reason }
    }

    /// The canonical spelling.
    package let text: String
    /// Whether the host is an IP address rather than a name.
    package let isAddress: Bool

    package var description: String { text }

    init(text: String, isAddress: Bool) {
        self.text = text
        self.isAddress = isAddress
    }

    /// The canonical spelling of `host`.
    ///
    /// - Parameter host: A host name (Unicode or Punycode) or an IP address, without a port.
    /// - Throws: ``Refusal`` when `host` is no host IDNA accepts, or no IP address.
    package init(_ host: String) throws(Refusal) {
        if host.hasPrefix("[") {
            guard host.count > 2, host.hasSuffix("]") else {
                throw Refusal("it opens a bracket that does not close around an IPv6 address")
            }
            self = try Self.ipv6(host.dropFirst().dropLast())
            return
        }
        if host.contains(":") {
            guard let address = try? Self.ipv6(host) else {
                throw Refusal("a \":\" belongs only in an IPv6 address; write the host without a port")
            }
            self = address
            return
        }
        try Self.refuseUncertainMappings(in: host)
        var name = Self.mapped(host)
        if name.hasSuffix(".") { name.removeLast() }
        guard !name.isEmpty else { throw Refusal("it is empty") }
        let labels = try name.split(separator: ".", omittingEmptySubsequences: false).map {
            (label) throws(Refusal) in try Self.asciiLabel(label)
        }
        let text = labels.joined(separator: ".")
        guard text.utf8.count <= 253 else {
            throw Refusal("it is \(text.utf8.count) bytes long in ASCII, over the 253 of a DNS name")
        }
        guard let last = labels.last, Self.isNumeric(last) else {
            self.init(text: text, isAddress: false)
            return
        }
        guard let address = Self.ipv4(text) else {
            throw Refusal("it ends in a number, as only an IPv4 address does, but is not one")
        }
        self.init(text: address, isAddress: true)
    }

    /// The canonical spelling of a connection's host, or, where ``init(_:)`` refuses it, the
    /// host lower-cased without a trailing dot: never a spelling that some pin could miss for
    /// want of canonicalising, and one a wildcard over its parent still covers.
    package static func lenient(_ host: String) -> HostName {
        if let canonical = try? HostName(host) { return canonical }
        var text = host.lowercased()
        if text.hasSuffix(".") { text.removeLast() }
        return HostName(text: text, isAddress: text.contains(":"))
    }

    // MARK: Names

    /// The full stops IDNA reads as `.`: ideographic, fullwidth and halfwidth ideographic.
    private static let labelDots: Set<Unicode.Scalar> = ["\u{3002}", "\u{FF0E}", "\u{FF61}"]

    /// `host` as UTS #46 maps it before splitting: NFKC, dots unified, lower case, NFC.
    private static func mapped(_ host: String) -> String {
        // Most hosts, and every host Foundation hands over, are ASCII: lower case is all they need.
        if host.utf8.allSatisfy({ $0 < 0x80 }) { return host.lowercased() }
        var folded = String.UnicodeScalarView()
        for scalar in host.precomposedStringWithCompatibilityMapping.unicodeScalars {
            if labelDots.contains(scalar) {
                folded.append(".")
            } else {
                folded.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
            }
        }
        return String(folded).precomposedStringWithCanonicalMapping
    }

    /// Refuses a character whose compatibility form brings in ASCII punctuation (`⒈` is `1.`,
    /// `／` is `/`): IDNA's handling of those depends on options no URL shows.
    private static func refuseUncertainMappings(in host: String) throws(Refusal) {
        for scalar in host.unicodeScalars where !scalar.isASCII && !labelDots.contains(scalar) {
            let folded = String(scalar).precomposedStringWithCompatibilityMapping.unicodeScalars
            if folded.contains(where: {
                $0.isASCII && !$0.properties.isAlphabetic && !("0"..."9").contains($0)
            }) {
                throw Refusal(
                    "it holds \(describe(scalar)), which IDNA does not map to a host name's characters")
            }
        }
    }

    /// One mapped label as DNS carries it: ASCII as it is, anything else as `xn--` Punycode.
    private static func asciiLabel(_ label: Substring) throws(Refusal) -> String {
        guard !label.isEmpty else {
            throw Refusal("it has an empty label (two dots in a row, or a leading dot)")
        }
        let scalars = Array(label.unicodeScalars)
        let text: String
        if scalars.allSatisfy(\.isASCII) {
            try requireValid(scalars, in: label)
            text = String(label)
            if text.hasPrefix("xn--") { try requireIDNA(text) }
        } else {
            try requireValid(scalars, in: label)
            // Each code point takes at least one character, so a longer label cannot fit.
            guard scalars.count <= 59, let encoded = Punycode.encode(scalars) else {
                throw Refusal(
                    "its label \"\(EscapedText.line(label))\" is over the 63 bytes of a DNS label in ASCII")
            }
            text = "xn--" + encoded
        }
        guard text.utf8.count <= 63 else {
            throw Refusal(
                "its label \"\(EscapedText.line(label))\" is over the 63 bytes of a DNS label in ASCII")
        }
        return text
    }

    /// Refuses a mapped label that IDNA would not accept as it is.
    private static func requireValid(_ scalars: [Unicode.Scalar], in label: Substring) throws(Refusal) {
        if let first = scalars.first, isMark(first) {
            throw Refusal(
                "its label \"\(EscapedText.line(label))\" starts with a combining mark, \(describe(first))")
        }
        for scalar in scalars where !isValid(scalar) {
            throw Refusal("it holds \(describe(scalar)), which no host name holds")
        }
    }

    /// Refuses an `xn--` label unless it is the Punycode of a valid label in mapped form.
    private static func requireIDNA(_ label: String) throws(Refusal) {
        let body = label.dropFirst(4)
        guard let decoded = Punycode.decode(body), decoded.contains(where: { !$0.isASCII }) else {
            throw Refusal("its label \"\(EscapedText.line(label))\" is not the Punycode of a Unicode label")
        }
        var unicode = String.UnicodeScalarView()
        unicode.append(contentsOf: decoded)
        let text = String(unicode)
        guard mapped(text) == text, (try? requireValid(decoded, in: Substring(text))) != nil,
            Punycode.encode(decoded) == String(body)
        else {
            throw Refusal(
                "its label \"\(EscapedText.line(label))\" decodes to \"\(EscapedText.line(text))\", which IDNA "
                    + "would not write this way")
        }
    }

    /// Whether a code point may stand in a mapped label.
    private static func isValid(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            return ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
                || scalar == "_"
        }
        switch scalar.properties.generalCategory {
        case .control, .format, .unassigned, .privateUse, .surrogate, .spaceSeparator, .lineSeparator,
            .paragraphSeparator:
            return false
        default:
            // Sharp s and final sigma are kept, as nontransitional processing keeps them.
            return !scalar.properties.changesWhenNFKCCaseFolded || scalar == "\u{DF}" || scalar == "\u{3C2}"
        }
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    /// Whether a label is a number as URL parsers read one: decimal digits, or `0x` and hex.
    private static func isNumeric(_ label: String) -> Bool {
        if label.hasPrefix("0x") { return label.dropFirst(2).allSatisfy(\.isHexDigit) }
        return label.allSatisfy { ("0"..."9").contains($0) }
    }

    /// A code point for a sentence: the character (escaped when it is a control) and its number.
    static func describe(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return
            "\"\(EscapedText.line(String(scalar)))\" (U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex))"
    }
}
