import Dispatch
import ErrandSync
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request sent as a delegate-driven task: collects the body, stops it at the size limit,
/// reports progress, and holds a refusal (a redirect to a pinned host) until the task ends.
///
/// FoundationNetworking tells neither sent nor received bytes to the delegate of a
/// completion-handler task, and buffers its whole body; a delegate-driven task hands over each
/// chunk as it arrives, so a body over the limit is stopped before it is held in memory.
final class TrackedTransfer: Sendable {
    private struct State {
        /// The body's chunks as they came, joined once at the end: no buffer is regrown (and
        /// briefly held twice) as the body grows, and a body of one chunk is never copied.
        var chunks: [Data] = []
        /// The bytes in ``chunks``; never more than the limit.
        var received = 0
        var downloadTotal: Int64?
        var sent: Int64 = 0
        var lastDownload: TransferProgress?
        var refusal: NetworkError?
        var tooLarge = false
    }

    let call: SessionCall
    private let reporter: ProgressReporter?
    private let uploadTotal: Int64
    /// The largest body accepted, in bytes.
    private let limit: Int
    private let state = Locked(State())

    init(call: SessionCall, reporter: ProgressReporter?, uploadTotal: Int64, limit: Int) {
        self.call = call
        self.reporter = reporter
        self.uploadTotal = uploadTotal
        self.limit = max(0, limit)
    }

    /// What an event leaves to do where the caller's code may run: failing the request, or
    /// reporting progress. `nil` when the event only kept count, as almost every event does.
    typealias FollowUp = @Sendable () -> Void

    /// Notes the response's announced length; a compressed body arrives decoded, so its
    /// `Content-Length` says nothing about the bytes delivered and the total stays unknown.
    ///
    /// - Returns: `nil`, or, when the announced length is over the limit, what fails the request
    ///   with `responseTooLarge` and cancels the task; no later event keeps anything.
    func received(_ response: URLResponse) -> FollowUp? {
        let length = response.expectedContentLength
        // Even compressed, a body announced over the limit can only be larger once decoded.
        guard length <= limit else {
            state.withLock { $0.tooLarge = true }
            return { [call, limit] in
                call.fail(
                    .responseTooLarge(request: call.request, limit: limit, announced: length),
                    stoppingTask: true)
            }
        }
        let encoding = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Encoding")
        let decoded = encoding.map { !$0.isEmpty && $0.lowercased() != "identity" } ?? false
        state.withLock { state in
            state.chunks = []
            state.received = 0
            state.lastDownload = nil
            state.downloadTotal = length >= 0 && !decoded ? length : nil
        }
        return nil
    }

    /// Keeps a slice of the body; past the limit, drops the body at once.
    ///
    /// - Returns: `nil`, or what reports the count so far, or (past the limit) what fails the
    ///   request with `responseTooLarge` and cancels the task.
    func received(_ data: Data) -> FollowUp? {
        let (event, crossed) = state.withLock { state -> (TransferProgress?, Bool) in
            guard !state.tooLarge else { return (nil, false) }
            // The one check on the common path; `received` never exceeds `limit`.
            guard data.count <= limit - state.received else {
                state.tooLarge = true
                state.chunks = []
                state.received = 0
                return (nil, true)
            }
            state.chunks.append(data)
            state.received += data.count
            guard reporter != nil else { return (nil, false) }
            return (
                Self.download(&state, completed: Int64(state.received), total: state.downloadTotal), false
            )
        }
        if crossed {
            return { [call, limit] in
                call.fail(
                    .responseTooLarge(request: call.request, limit: limit, announced: nil), stoppingTask: true
                )
            }
        }
        guard let event else { return nil }
        return { self.report(event) }
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
        let (chunks, received, refusal, finals) = state.withLock { state in
            var finals: [TransferProgress] = []
            if error == nil, state.refusal == nil, response != nil {
                if uploadTotal > 0, state.sent < uploadTotal {
                    state.sent = uploadTotal
                    finals.append(
                        TransferProgress(
                            direction: .upload, completedBytes: uploadTotal, totalBytes: uploadTotal))
                }
                let count = Int64(state.received)
                // The total is known at the end: the bytes that came, when they differ from what was announced.
                let total = state.downloadTotal.map { _ in count }
                if let event = Self.download(&state, completed: count, total: total, final: true) {
                    finals.append(event)
                }
            }
            return (state.chunks, state.received, state.refusal, finals)
        }
        if let refusal {
            call.fail(refusal)
            return
        }
        for event in finals { report(event) }
        call.complete(data: Self.joined(chunks, count: received), response: response, error: error)
    }

    /// The body from its chunks: the one chunk itself when there is only one.
    private static func joined(_ chunks: [Data], count: Int) -> Data {
        guard chunks.count > 1 else { return chunks.first ?? Data() }
        var body = Data(capacity: count)
        for chunk in chunks { body.append(chunk) }
        return body
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
