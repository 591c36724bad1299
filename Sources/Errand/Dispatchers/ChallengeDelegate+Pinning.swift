#if canImport(Security)
    import Foundation
    import Security

    /// The hand-over from Apple's server trust object to the portable pin check.
    ///
    /// The system evaluates the chain first (expiry, name, trusted roots); pins only narrow what
    /// it accepts. A chain it rejects keeps the default handling and fails as a TLS error.
    extension ChallengeDelegate {
        func answerPinned(
            _ challenge: URLAuthenticationChallenge, task: URLSessionTask, pins: PublicKeyPins,
            completionHandler:
                @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            let host = challenge.protectionSpace.host
            guard let trust = challenge.protectionSpace.serverTrust, SecTrustEvaluateWithError(trust, nil),
                let chain = SecTrustCopyCertificateChain(trust) as? [SecCertificate]
            else {
                completionHandler(.performDefaultHandling, nil)
                return
            }
            let certificates = chain.map { SecCertificateCopyData($0) as Data }
            guard pins.accepts(host: host, certificates: certificates) else {
                let refusal = NetworkError.pinMismatch(host: host, certificates: certificates.count)
                refusals.withLock { $0[task.taskIdentifier] = refusal }
                completionHandler(.cancelAuthenticationChallenge, nil)
                return
            }
            completionHandler(.useCredential, URLCredential(trust: trust))
        }
    }
#endif
