#if canImport(Security)
    import Foundation
    import Security

    /// The hand-over from Apple's server trust object to the portable pin decision,
    /// ``PublicKeyPins/answer(host:systemTrusted:chain:)``, which holds every rule.
    ///
    /// Only reading the trust lives here. The system evaluates first, and the chain is copied
    /// after: it is then the path the system built and trusted, leaf first, not merely what the
    /// server sent (`SecTrustCopyCertificateChain`, iOS 15 and macOS 12).
    extension ChallengeDelegate {
        func answerPinned(
            _ challenge: URLAuthenticationChallenge, task: URLSessionTask, pins: PublicKeyPins,
            completionHandler:
                @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            let trust = challenge.protectionSpace.serverTrust
            let trusted = trust.map { SecTrustEvaluateWithError($0, nil) } ?? false
            let chain = trust.flatMap { SecTrustCopyCertificateChain($0) as? [SecCertificate] }
            let answer = pins.answer(
                host: challenge.protectionSpace.host, systemTrusted: trusted,
                chain: chain?.map { SecCertificateCopyData($0) as Data })
            let settled = settle(answer, forTask: task.taskIdentifier)
            let credential = settled == .useCredential ? trust.map { URLCredential(trust: $0) } : nil
            completionHandler(settled, credential)
        }
    }
#endif
