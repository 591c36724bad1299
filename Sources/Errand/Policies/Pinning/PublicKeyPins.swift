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
/// Hosts match exactly, ignoring case and a trailing dot. A host written `*.example.com` covers
/// every subdomain of `example.com` at any depth, but not `example.com` itself; an exact entry
/// wins over a wildcard, and a longer wildcard over a shorter one. An IP address is matched by
/// its exact entry only: no wildcard covers one (`*.0.0.1` is refused, as TLS refuses wildcard
/// certificates for addresses).
public struct PublicKeyPins: Hashable, Sendable {
    /// The pinned digests (32 bytes each) by host pattern, lowercased.
    let digests: [String: Set<Data>]

    /// Creates pins for hosts.
    ///
    /// - Parameter pins: Base64 pins by host, such as
    ///   `["api.example.com": ["base64pin1=", "base64pin2="], "*.cdn.example.com": […]]`.
    /// - Throws: `NetworkError` with code `pinning` when a host is empty or malformed, when a pin
    ///   is not the base64 of 32 bytes, or when a host has fewer than two distinct pins
    ///   (`NetworkError` is the only error thrown, as everywhere in the public API).
    public init(_ pins: [String: [String]]) throws {
        var digests: [String: Set<Data>] = [:]
        for (host, encoded) in pins {
            let pattern = Self.normalized(host)
            let name = pattern.hasPrefix("*.") ? String(pattern.dropFirst(2)) : pattern
            guard !name.isEmpty, !name.contains("*"), !name.contains("/"), !name.contains(":") else {
                throw Self.invalid("The pinned host \"\(host)\" is not a host name or a \"*.\" pattern.")
            }
            guard name == pattern || !Self.isAddress(name) else {
                throw Self.invalid(
                    "The pattern \"\(host)\" would cover IP addresses, which no wildcard does; pin each "
                        + "address by itself.")
            }
            var set = Set<Data>()
            for pin in encoded {
                guard let digest = Data(base64Encoded: pin), digest.count == 32 else {
                    throw Self.invalid(
                        "The pin \"\(pin)\" for \(host) is not the base64 of a SHA-256 digest (32 bytes).")
                }
                set.insert(digest)
            }
            guard set.count >= 2 else {
                throw Self.invalid(
                    "\(host) has \(set.count) distinct pin(s); pin at least two keys (the one in use and "
                        + "a backup kept offline) so that a key change cannot lock clients out.")
            }
            guard digests.updateValue(set, forKey: pattern) == nil else {
                throw Self.invalid("The host \(host) is pinned twice.")
            }
        }
        self.digests = digests
    }

    /// Whether requests to `host` are subject to pinning.
    ///
    /// - Parameter host: A host name, as in a URL.
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

    /// Whether a server's certificate chain satisfies the pins of `host`.
    ///
    /// - Parameters:
    ///   - host: The host that was connected to.
    ///   - certificates: The server's chain, DER-encoded, leaf first.
    /// - Returns: `true` when `host` is not pinned, or when any certificate carries a pinned key.
    ///   Certificates that cannot be read count as not matching.
    func accepts(host: String, certificates: [Data]) -> Bool {
        guard let pinned = pins(forHost: host) else { return true }
        return certificates.contains { certificate in
            guard let keyInfo = DERReader.subjectPublicKeyInfo(ofCertificate: certificate) else {
                return false
            }
            return pinned.contains(SHA256.hash(keyInfo))
        }
    }

    /// The pins that apply to `host`: its exact entry, else its longest covering wildcard.
    func pins(forHost host: String) -> Set<Data>? {
        let name = Self.normalized(host)
        if let exact = digests[name] { return exact }
        var labels = name.split(separator: ".", omittingEmptySubsequences: false).dropFirst()
        while !labels.isEmpty {
            if let wildcard = digests["*." + labels.joined(separator: ".")] { return wildcard }
            labels = labels.dropFirst()
        }
        return nil
    }

    private static func normalized(_ host: String) -> String {
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        return name
    }

    /// Whether `name` ends as an IP address does, rather than a DNS name: it holds a colon
    /// (IPv6), or its last label is a number, as URL parsers read `127.0.0.1`, `127.1` and
    /// `0x7f.1` as IPv4 addresses (no top-level domain is numeric). A wildcard refused for it
    /// therefore covers no address: a host matches a wildcard only if it ends with its name.
    private static func isAddress(_ name: String) -> Bool {
        if name.contains(":") { return true }
        guard let last = name.split(separator: ".").last, !last.isEmpty else { return false }
        let digits = last.hasPrefix("0x") ? last.dropFirst(2) : last
        let radix = last.hasPrefix("0x") ? 16 : 10
        return digits.allSatisfy { ($0.hexDigitValue ?? radix) < radix }
    }

    private static func invalid(_ message: String) -> NetworkError {
        NetworkError(code: .pinning, message: message)
    }
}
