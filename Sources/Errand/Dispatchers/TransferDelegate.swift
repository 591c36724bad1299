import ErrandSync
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The delegate of a dispatcher's own session, whose tasks are all delegate-driven: it routes
/// each task's events to its ``TrackedTransfer``.
///
/// A dispatcher built on the caller's session sends only the requests that ask for progress
/// (and, on Linux, those of a dispatcher with pins) this way.
final class TransferDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let transfers = Locked<[Int: TrackedTransfer]>([:])
    private let challenges: ChallengeDelegate
    private let pins: PublicKeyPins?

    init(pins: PublicKeyPins?) {
        self.pins = pins
        self.challenges = ChallengeDelegate(pins: pins)
    }

    /// Routes the events of `task` to `transfer` until the task completes; call before resuming.
    func track(_ task: URLSessionTask, as transfer: TrackedTransfer) {
        transfers.withLock { $0[task.taskIdentifier] = transfer }
    }

    /// Forgets a task that was never resumed.
    func untrack(_ task: URLSessionTask) {
        _ = transfers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
    }

    private func transfer(for task: URLSessionTask) -> TrackedTransfer? {
        transfers.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let allowed = transfer(for: dataTask)?.received(response) ?? true
        completionHandler(allowed ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        transfer(for: dataTask)?.received(data)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        transfer(for: task)?.sent(totalBytes: totalBytesSent)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        #if !canImport(Security)
            // Where pins cannot be checked, a redirect must not carry the request to a pinned host.
            if let pins, let host = request.url?.host, pins.covers(host: host) {
                transfer(for: task)?.refuse(
                    .pinningUnavailable(host: host, request: transfer(for: task)?.call.request))
                completionHandler(nil)
                return
            }
        #endif
        completionHandler(request)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        challenges.urlSession(
            session, task: task, didReceive: challenge, completionHandler: completionHandler)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else {
            return
        }
        if let refusal = challenges.takeRefusal(forTask: task.taskIdentifier) {
            transfer.refuse(refusal.attaching(transfer.call.request))
        }
        let challenged = challenges.takeChallengedResponse(forTask: task.taskIdentifier)
        transfer.complete(response: task.response ?? challenged, error: challenged == nil ? error : nil)
    }
}
