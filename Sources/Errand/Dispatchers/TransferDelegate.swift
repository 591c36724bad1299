import ErrandSync
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The delegate of a dispatcher's own session, whose tasks are all delegate-driven: it routes
/// each task's events to its ``TrackedTransfer``.
///
/// A dispatcher built on the caller's session sends only the requests that ask for progress this
/// way, through a second session (see ``TrackedSession``); such a dispatcher has no pins.
///
/// On Linux the session raises its events on its own thread (see ``InlineDelegateQueue``): the
/// response and each chunk of the body are counted there, at once, and a redirect is answered
/// there (it checks the pins and withholds credentials from another origin, see
/// ``RedirectCredentials``); everything that can reach the caller's code or wait for the
/// session (the outcome, a failure at the size limit, progress, challenges) goes on through one
/// serial queue, in the order the events came. So a request costs one hop instead of one per
/// event, and a body is counted as fast as it arrives.
final class TransferDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let transfers = Locked<[Int: TrackedTransfer]>([:])
    private let challenges: ChallengeDelegate
    private let pins: PublicKeyPins?
    #if canImport(FoundationNetworking)
        /// Where the events' follow-ups run, one at a time, in order.
        private let followUps = SerialDelegateQueue()
    #endif

    init(pins: PublicKeyPins?) {
        self.pins = pins
        self.challenges = ChallengeDelegate(pins: pins)
    }

    #if canImport(FoundationNetworking)
        /// Runs `work` where the caller's code may run: after the follow-ups before it, off the
        /// session's thread (which the caller's code could wait for: starting or cancelling a
        /// task waits for it).
        private func later(_ work: @escaping @Sendable () -> Void) {
            followUps.addOperation(work)
        }
    #else
        /// Runs `work` now: the session's delegate queue is a place the caller's code may run.
        /// Not escaping, so nothing it captures (a task, a response) must be `Sendable`.
        private func later(_ work: () -> Void) {
            work()
        }
    #endif

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
        let refusal = transfer(for: dataTask)?.received(response)
        completionHandler(refusal == nil ? .allow : .cancel)
        if let refusal { later(refusal) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if let followUp = transfer(for: dataTask)?.received(data) { later(followUp) }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        guard let transfer = transfer(for: task) else { return }
        later { transfer.sent(totalBytes: totalBytesSent) }
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
        completionHandler(RedirectCredentials.withheld(from: request, after: task.originalRequest?.url))
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking)
            // Later: FoundationNetworking's answer to some dispositions resumes the task, which
            // waits for the session's thread. Its challenge, session and task are Sendable.
            later { [challenges] in
                challenges.urlSession(
                    session, task: task, didReceive: challenge, completionHandler: completionHandler)
            }
        #else
            // Directly: Apple's session needs no hop here, and its SDK does not promise that a
            // challenge is Sendable, so none crosses into a @Sendable closure.
            challenges.urlSession(
                session, task: task, didReceive: challenge, completionHandler: completionHandler)
        #endif
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else {
            return
        }
        let identifier = task.taskIdentifier
        later { [challenges] in
            if let refusal = challenges.takeRefusal(forTask: identifier) {
                transfer.refuse(refusal.attaching(transfer.call.request))
            }
            let challenged = challenges.takeChallengedResponse(forTask: identifier)
            transfer.complete(response: task.response ?? challenged, error: challenged == nil ? error : nil)
        }
    }
}
