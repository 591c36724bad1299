import Foundation

/// How a server trust challenge is answered: the portable form of
/// `URLSession.AuthChallengeDisposition` and the credential that goes with it.
enum ServerTrustAnswer: Sendable {
    /// Let the system decide, as if there were no delegate: it accepts what it trusts.
    case performDefaultHandling
    /// Accept the server's trust: the system trusted the chain and the pins matched.
    case useServerTrust
    /// Refuse the connection; the error becomes the request's outcome.
    case cancel(NetworkError)
}

extension PublicKeyPins {
    /// The answer to a server trust challenge for `host`: the whole pin decision, kept apart
    /// from the platform's trust objects so that every case of it runs everywhere.
    ///
    /// The system's evaluation comes first (expiry, name, trusted roots) and pins only narrow
    /// what it accepts:
    ///
    /// - A host no entry covers is not pinned: default handling.
    /// - A chain the system did not trust keeps default handling, which fails the connection with
    ///   the system's own TLS error (expired, wrong name, unknown root): it says more than a
    ///   pinning error would, and the pins could only narrow an acceptance that is not coming.
    /// - A trusted chain is accepted when any of its certificates (the leaf, an intermediate or
    ///   the root) carries a pinned key, so an app may pin its CA's key and let the leaf rotate.
    ///   The chain must be the one the system built while evaluating (leaf first): an attacker
    ///   can send extra certificates, but cannot get one into the path the system trusted.
    /// - A trusted chain without a pinned key is refused with ``NetworkError/pinMismatch(host:certificates:)``.
    /// - A trusted chain that could not be read (`nil` or empty) is refused: default handling
    ///   would accept it, since the system trusts it, and the pins would never be checked.
    ///
    /// - Parameters:
    ///   - host: The host of the challenge, in any spelling ``covers(host:)`` accepts.
    ///   - systemTrusted: Whether the system's evaluation of the server's trust succeeded.
    ///   - chain: The evaluated chain, DER-encoded, leaf first; `nil` when it could not be copied.
    /// - Returns: What to tell the session; ``ServerTrustAnswer/cancel(_:)`` carries the refusal.
    func answer(host: String, systemTrusted: Bool, chain: [Data]?) -> ServerTrustAnswer {
        guard covers(host: host), systemTrusted else { return .performDefaultHandling }
        guard let chain, !chain.isEmpty else { return .cancel(.pinChainUnreadable(host: host)) }
        guard accepts(host: host, certificates: chain) else {
            return .cancel(.pinMismatch(host: host, certificates: chain.count))
        }
        return .useServerTrust
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
}
