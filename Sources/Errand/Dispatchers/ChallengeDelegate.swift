import ErrandSync
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Answers HTTP authentication challenges by handing the 401 back to the caller.
///
/// Left to default handling, FoundationNetworking on Linux waits forever on a 401 that carries
/// `WWW-Authenticate: Basic`. Errand's auth lives in its policies, not in URLSession's credential
/// store, so there the challenge is cancelled and the 401 response (status and headers; the
/// body is lost) is delivered as an answer. Server trust challenges for hosts with pins are
/// checked against them where the platform allows: `ChallengeDelegate+Pinning.swift` reads the
/// platform's trust, ``PublicKeyPins/answer(host:systemTrusted:chain:)`` decides, and
/// ``settle(_:forTask:)`` turns the decision into a disposition. Others, and client certificate
/// challenges, keep the system's default handling.
final class ChallengeDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    private let challenged = Locked<[Int: HTTPURLResponse]>([:])
    /// The pinning failures of tasks whose server trust challenge was refused.
    private let refusals = Locked<[Int: NetworkError]>([:])
    /// The public keys that pinned hosts must present.
    let pins: PublicKeyPins?

    init(pins: PublicKeyPins? = nil) {
        self.pins = pins
    }

    /// The challenges a server makes with `WWW-Authenticate`; others (TLS) keep default handling.
    private static let httpMethods: Set<String> = [
        NSURLAuthenticationMethodDefault, NSURLAuthenticationMethodHTTPBasic,
        NSURLAuthenticationMethodHTTPDigest,
    ]

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(Security)
            if challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
                let pins, pins.covers(host: challenge.protectionSpace.host)
            {
                answerPinned(challenge, task: task, pins: pins, completionHandler: completionHandler)
                return
            }
        #endif
        guard Self.httpMethods.contains(challenge.protectionSpace.authenticationMethod),
            let response = (challenge.failureResponse ?? task.response) as? HTTPURLResponse
        else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        #if canImport(FoundationNetworking)
            // The 401's body is dropped by FoundationNetworking here; status and headers survive.
            challenged.withLock { $0[task.taskIdentifier] = response }
            completionHandler(.cancelAuthenticationChallenge, nil)
        #else
            // Apple's default handling finds no credential and delivers the 401 with its body.
            _ = response
            completionHandler(.performDefaultHandling, nil)
        #endif
    }

    /// The 401 response recorded for a task whose challenge was cancelled, once.
    func takeChallengedResponse(forTask identifier: Int) -> HTTPURLResponse? {
        challenged.withLock { $0.removeValue(forKey: identifier) }
    }

    /// The session's disposition for a server trust answer; a refusal is kept as the task's
    /// outcome, for ``takeRefusal(forTask:)``.
    func settle(_ answer: ServerTrustAnswer, forTask identifier: Int) -> URLSession.AuthChallengeDisposition {
        switch answer {
        case .performDefaultHandling:
            return .performDefaultHandling
        case .useServerTrust:
            return .useCredential
        case .cancel(let refusal):
            refusals.withLock { $0[identifier] = refusal }
            return .cancelAuthenticationChallenge
        }
    }

    /// The pinning failure recorded for a task whose server trust was refused, once.
    func takeRefusal(forTask identifier: Int) -> NetworkError? {
        refusals.withLock { $0.removeValue(forKey: identifier) }
    }
}
