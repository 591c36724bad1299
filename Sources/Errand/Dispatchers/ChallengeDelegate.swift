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
/// body is lost) is delivered as an answer. Server
/// trust and client certificate challenges keep the system's default handling.
final class ChallengeDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    private let challenged = Locked<[Int: HTTPURLResponse]>([:])

    /// The challenges a server makes with `WWW-Authenticate`; others (TLS) keep default handling.
    private static let httpMethods: Set<String> = [
        NSURLAuthenticationMethodDefault, NSURLAuthenticationMethodHTTPBasic,
        NSURLAuthenticationMethodHTTPDigest,
    ]

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
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
}
