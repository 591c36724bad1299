import Foundation

/// SHA-256 pins of servers' public keys (their SubjectPublicKeyInfo), per host.
///
/// A pin is the base64 of the SHA-256 digest of a certificate's DER-encoded SubjectPublicKeyInfo,
/// the form HTTP Public Key Pinning used. Compute it from a certificate with:
///
/// ```
/// openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der \
///   | openssl dgst -sha256 -binary | base64
/// ```
///
/// or with ``pin(ofCertificate:)``. A connection to a pinned host is accepted when any
/// certificate of the server's chain carries a pinned key. Each host needs at least two pins:
/// the key in use and a backup key kept offline, so that losing or rotating the key does not
/// lock every installed app out of its server. A single pin is refused.
///
/// Hosts are written and compared in one spelling, whichever a URL or a person uses:
///
/// - Names in Unicode or in Punycode, in any case, with or without the root's trailing dot:
///   `bücher.example`, `BÜCHER.example.` and `xn--bcher-kva.example` are one host, mapped as
///   IDNA maps it (UTS #46, as URL parsers do; `。`, `．` and `｡` separate labels as `.` does).
/// - IPv4 addresses in any spelling a resolver reads: `127.0.0.1`, `127.1`, `0x7f.0.0.1`.
/// - IPv6 addresses with or without brackets, in any valid form: `[::1]`, `::1`, `[0:0::1]` and
///   `[0:0:0:0:0:0:0:1]` are one address; `[2001:DB8::1]` is `[2001:db8::1]`. A zone (`%en0`)
///   is ignored, and an IPv4-mapped address (`[::ffff:192.0.2.1]`) is the IPv4 address.
///
/// A host that IDNA refuses (a space, a control or format character, ASCII punctuation other
/// than `-` and `_`, Punycode that does not decode), or that has a port, is refused when the
/// pins are made, never left unpinned. A host written `*.example.com` covers every subdomain
/// of `example.com` at any depth, but not `example.com` itself; an exact entry wins over a
/// wildcard, and a longer wildcard over a shorter one. An IP address is matched by its exact
/// entry only: no wildcard covers one (`*.0.0.1` is refused, as TLS refuses wildcard
/// certificates for addresses).
public struct PublicKeyPins: Hashable, Sendable {
    /// The pinned digests (32 bytes each) by host pattern: a ``HostName``'s text, or `*.` and one.
    let digests: [String: Set<Data>]

    /// Creates pins for hosts.
    ///
    /// - Parameter pins: Base64 pins by host, such as
    ///   `["api.example.com": ["base64pin1=", "base64pin2="], "*.cdn.example.com": […]]`.
    /// - Throws: `NetworkError` with code `pinning` when a host is empty, has a port or is not a
    ///   host IDNA accepts, when a pin is not the base64 of 32 bytes, when a host has fewer than
    ///   two distinct pins, or when two entries name one host (`NetworkError` is the only error
    ///   thrown, as everywhere in the public API).
    public init(_ pins: [String: [String]]) throws {
        var digests: [String: Set<Data>] = [:]
        for (host, encoded) in pins {
            let pattern = try Self.pattern(host)
            let shown = EscapedText.line(host)
            var set = Set<Data>()
            for pin in encoded {
                guard let digest = Data(base64Encoded: pin), digest.count == 32 else {
                    throw Self.invalid(
                        "The pin \"\(EscapedText.line(pin))\" for \(shown) is not the base64 of a SHA-256 digest "
                            + "(32 bytes).")
                }
                set.insert(digest)
            }
            guard set.count >= 2 else {
                throw Self.invalid(
                    "\(shown) has \(set.count) distinct pin(s); pin at least two keys (the one in use and "
                        + "a backup kept offline) so that a key change cannot lock clients out.")
            }
            guard digests.updateValue(set, forKey: pattern) == nil else {
                throw Self.invalid("The host \(shown) is pinned twice (as \(pattern), under two spellings).")
            }
        }
        self.digests = digests
    }

    /// Whether requests to `host` are subject to pinning.
    ///
    /// - Parameter host: A host name or IP address, in any spelling the type accepts: as
    ///   `URL.host` gives it (Punycode, IPv6 without brackets) or as written (Unicode, brackets).
    /// - Returns: `true` when an exact or wildcard entry covers the host.
    public func covers(host: String) -> Bool {
        pins(forHost: host) != nil
    }

    /// The pin of a DER-encoded X.509 certificate's public key.
    ///
    /// - Parameter certificate: The certificate in DER form (not PEM).
    /// - Returns: The base64 of the SHA-256 digest of its SubjectPublicKeyInfo.
    /// - Throws: `NetworkError` with code `pinning` when the bytes are not a certificate.
    public static func pin(ofCertificate certificate: Data) throws -> String {
        guard let keyInfo = DERReader.subjectPublicKeyInfo(ofCertificate: certificate) else {
            throw invalid("The bytes (\(certificate.count)) are not a DER-encoded X.509 certificate.")
        }
        return SHA256.hash(keyInfo).base64EncodedString()
    }

    /// The pins that apply to `host`: its exact entry, else its longest covering wildcard.
    ///
    /// The one place a connection's host meets the pins: both sides are ``HostName``s, so no
    /// spelling of a pinned host escapes its pins.
    func pins(forHost host: String) -> Set<Data>? {
        let name = HostName.lenient(host)
        if let exact = digests[name.text] { return exact }
        guard !name.isAddress else { return nil }
        var labels = name.text.split(separator: ".", omittingEmptySubsequences: false).dropFirst()
        while !labels.isEmpty {
            if let wildcard = digests["*." + labels.joined(separator: ".")] { return wildcard }
            labels = labels.dropFirst()
        }
        return nil
    }

    /// The key `host` is kept under: its ``HostName``, after `*.` for a wildcard.
    private static func pattern(_ host: String) throws(NetworkError) -> String {
        let wildcard = host.hasPrefix("*.")
        let name: HostName
        do {
            name = try HostName(wildcard ? String(host.dropFirst(2)) : host)
        } catch {
            throw invalid(
                "The pinned host \"\(EscapedText.line(host))\" is not a host name, an IP address or a \"*.\" "
                    + "pattern: \(error.reason). It was refused rather than left unpinned.")
        }
        guard wildcard else { return name.text }
        guard !name.isAddress else {
            throw invalid(
                "The pattern \"\(EscapedText.line(host))\" would cover IP addresses, which no wildcard does; "
                    + "pin each address by itself.")
        }
        return "*." + name.text
    }

    private static func invalid(_ message: String) -> NetworkError {
        NetworkError(code: .pinning, message: message)
    }
}
