import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// IP addresses in one spelling, read and written by the C library, as resolvers read them.
extension HostName {
    /// `text`, an IPv6 address without brackets, in brackets as `inet_ntop` writes it; its zone
    /// dropped, and an IPv4-mapped address as the IPv4 address.
    static func ipv6(_ text: some StringProtocol) throws(Refusal) -> HostName {
        let address = text.prefix { $0 != "%" }
        // Checked first: the C library reads a string only up to a NUL.
        var bytes = in6_addr()
        guard !address.isEmpty,
            address.utf8.allSatisfy({ isHex($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }),
            inet_pton(AF_INET6, String(address), &bytes) == 1
        else {
            throw Refusal("\"\(EscapedText.line(text))\" is not an IPv6 address")
        }
        let raw = withUnsafeBytes(of: bytes) { Array($0) }
        if raw[0..<10].allSatisfy({ $0 == 0 }), raw[10] == 0xFF, raw[11] == 0xFF {
            return HostName(text: raw[12...].map { String($0) }.joined(separator: "."), isAddress: true)
        }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &bytes, &buffer, socklen_t(buffer.count)) != nil else {
            throw Refusal("\"\(EscapedText.line(text))\" is not an IPv6 address")
        }
        let written = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return HostName(text: "[\(written)]", isAddress: true)
    }

    /// `text` in dotted decimal when `inet_aton` reads it as an IPv4 address (each part decimal,
    /// `0x` hex or `0` octal, the last filling the bytes left), as resolvers and URL parsers do.
    static func ipv4(_ text: String) -> String? {
        guard text.utf8.allSatisfy({ isHex($0) || $0 == UInt8(ascii: "x") || $0 == UInt8(ascii: ".") }) else {
            return nil
        }
        var address = in_addr()
        guard inet_aton(text, &address) != 0 else { return nil }
        // In network order, the first byte first.
        return withUnsafeBytes(of: address) { $0.map { String($0) }.joined(separator: ".") }
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}
