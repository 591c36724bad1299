import Foundation

/// Real certificates made by openssl, kept as DER files in `Fixtures/Certificates`, each with
/// the pin openssl computes for it, independently of Errand:
///
/// ```
/// openssl x509 -in c.der -inform der -pubkey -noout | openssl pkey -pubin -outform der \
///   | openssl dgst -sha256 -binary | base64
/// ```
///
/// Made with `openssl req -x509 -newkey <key> -nodes -subj /CN=<name> -days 36500 -outform DER`
/// (OpenSSL 3.0); the chain is a P-256 root that signed a P-384 intermediate (`CA:TRUE,
/// pathlen:0`) that signed an RSA 2048 leaf for `chain.example.com`; `p256-v1` is a version 1
/// certificate (no `[0]` version field, made by `openssl x509 -req -signkey`).
enum CertificateFixture: String, CaseIterable, Sendable, CustomStringConvertible {
    case rsa2048
    case rsa4096
    case p256
    case p384
    case ed25519
    case p256Version1 = "p256-v1"
    case chainLeaf = "chain-leaf"
    case chainIntermediate = "chain-intermediate"
    case chainRoot = "chain-root"

    /// openssl's pin of the certificate's key.
    var expectedPin: String {
        switch self {
        case .rsa2048: "goiiigY2XBVbY+USn29ykAQfrWnvLlkzZSVNSP9gYvY="
        case .rsa4096: "lKFZotCi4KuTVAMsU09XWt/H+wx4AOF3AaACsRnQDVA="
        case .p256: "uObQ6nBmUajtQ28OKY9rIbz2WqF4s8wgeUZyLQvjV/k="
        case .p384: "Bpc6rklnnTgcnMNGclm3lfgIEtlEUZVysHoP+X5QaSo="
        case .ed25519: "vJ7zYSBtdX6I5GEjVWHTa7VKaV4NDXvRpauak0WehZE="
        case .p256Version1: "T5lUlm+rZ69PVLLBOEXiBVl7DgAkoEbxfnRLtqU7bmo="
        case .chainLeaf: "g5m+//WfWqZMiDxoL3X1vANxfTdp2Zf53CfbYFf52rA="
        case .chainIntermediate: "5pdMDcvsauL2h/RacmyIaiHkpTomLeryljPfONrREC4="
        case .chainRoot: "Tpa9/JwrECuKS+IRGPjD3OfXcb4rt37jRpjQDtCmwJY="
        }
    }

    /// The certificate's size in bytes, as written.
    var size: Int {
        switch self {
        case .rsa2048: 803
        case .rsa4096: 1315
        case .p256: 401
        case .p384: 462
        case .ed25519: 343
        case .p256Version1: 306
        case .chainLeaf: 658
        case .chainIntermediate: 440
        case .chainRoot: 401
        }
    }

    var description: String { rawValue }

    /// The certificate's DER bytes.
    func der() throws -> Data {
        guard
            let url = Bundle.module.url(
                forResource: rawValue, withExtension: "der", subdirectory: "Fixtures/Certificates")
        else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try Data(contentsOf: url)
    }

    /// The chain a server for `chain.example.com` presents, leaf first.
    static func chain() throws -> [Data] {
        try [chainLeaf.der(), chainIntermediate.der(), chainRoot.der()]
    }

    /// A second pin that matches no fixture, to make a valid pin set (two at least).
    static let backupPin = Data(repeating: 0xb0, count: 32).base64EncodedString()
}
