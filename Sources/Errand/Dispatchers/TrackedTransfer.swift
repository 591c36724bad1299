import Dispatch
import ErrandSync
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request sent as a delegate-driven task: collects the body, reports progress, and holds a
/// refusal (a redirect to a pinned host) until the task ends.
///
/// Completion-handler tasks are the fast path, but FoundationNetworking tells neither sent nor
/// received bytes to the delegate for them; requests that want progress come this way instead.
final class TrackedTransfer: Sendable {
    private struct State {
        var body = Data()
        var downloadTotal: Int64?
        var sent: Int64 = 0
        var lastDownload: TransferProgress?
        var refusal: NetworkError?
    }

    let call: SessionCall
    private let reporter: ProgressReporter?
    private let uploadTotal: Int64
    private let state = Locked(State())

    init(call: SessionCall, reporter: ProgressReporter?, uploadTotal: Int64) {
        self.call = call
        self.reporter = reporter
        self.uploadTotal = uploadTotal
    }

    /// Notes the response's announced length; a compressed body arrives decoded, so its
    /// `Content-Length` says nothing about the bytes delivered and the total stays unknown.
    func received(_ response: URLResponse) {
        let encoding = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Encoding")
        let decoded = encoding.map { !$0.isEmpty && $0.lowercased() != "identity" } ?? false
        let length = response.expectedContentLength
        state.withLock { state in
            state.body = Data()
            state.lastDownload = nil
            state.downloadTotal = length >= 0 && !decoded ? length : nil
        }
    }

    /// Keeps a slice of the body and reports the count so far.
    func received(_ data: Data) {
        let event = state.withLock { state in
            state.body.append(data)
            return Self.download(&state, completed: Int64(state.body.count), total: state.downloadTotal)
        }
        report(event)
    }

    /// Reports the body bytes sent so far.
    func sent(totalBytes: Int64) {
        let event: TransferProgress? = state.withLock { state in
            // A redirect that resends the body starts over; keep the events monotonic.
            guard totalBytes > state.sent else { return nil }
            state.sent = min(totalBytes, uploadTotal)
            return TransferProgress(direction: .upload, completedBytes: state.sent, totalBytes: uploadTotal)
        }
        report(event)
    }

    /// Ends the request with `error` when the task finishes, whatever it reports.
    func refuse(_ error: NetworkError) {
        state.withLock { $0.refusal = $0.refusal ?? error }
    }

    /// Delivers the task's end: the refusal if any, else the final counts and then the outcome.
    func complete(response: URLResponse?, error: (any Error)?) {
        let (body, refusal, finals) = state.withLock { state in
            var finals: [TransferProgress] = []
            if error == nil, state.refusal == nil, response != nil {
                if uploadTotal > 0, state.sent < uploadTotal {
                    state.sent = uploadTotal
                    finals.append(
                        TransferProgress(
                            direction: .upload, completedBytes: uploadTotal, totalBytes: uploadTotal))
                }
                let count = Int64(state.body.count)
                // The total is known at the end: the bytes that came, when they differ from what was announced.
                let total = state.downloadTotal.map { _ in count }
                if let event = Self.download(&state, completed: count, total: total, final: true) {
                    finals.append(event)
                }
            }
            return (state.body, state.refusal, finals)
        }
        if let refusal {
            call.fail(refusal)
            return
        }
        for event in finals { report(event) }
        call.complete(data: body, response: response, error: error)
    }

    private static func download(
        _ state: inout State, completed: Int64, total: Int64?, final: Bool = false
    ) -> TransferProgress? {
        let event = TransferProgress(direction: .download, completedBytes: completed, totalBytes: total)
        guard event != state.lastDownload, final || completed > (state.lastDownload?.completedBytes ?? 0)
        else { return nil }
        state.lastDownload = event
        return event
    }

    private func report(_ event: TransferProgress?) {
        guard let event, let reporter, call.isRunning else { return }
        reporter.report(event)
    }
}

/// A caller's progress handler and the queue it runs on.
struct ProgressReporter: Sendable {
    let queue: DispatchQueue?
    let handler: @Sendable (TransferProgress) -> Void

    /// Hands `event` to the handler, on its queue when it has one.
    func report(_ event: TransferProgress) {
        if let queue {
            queue.async { [handler] in handler(event) }
        } else {
            handler(event)
        }
    }
}
