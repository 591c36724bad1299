import Dispatch
import ErrandSync

/// A caller's progress handler and the queue it runs on, carried by the request through every
/// policy to whatever moves its bytes.
///
/// The transport, the fakes and replay report to it; ``NetworkDispatcher``'s progress forms
/// end it. Once ended (the answer delivered, an error, a cancel), it reports nothing more and
/// lets go of the handler, so a request kept after its end (in a cache entry, in
/// ``InMemoryDispatcher/receivedRequests``) holds none of the caller's code.
///
/// Equal to every other reporter, as the request's marks are: it is not part of the request.
package final class ProgressReporter: Sendable {
    private struct State {
        var handler: (@Sendable (TransferProgress) -> Void)?
        /// The last download event reported, so that ``finish(receivedBytes:)`` does not repeat it.
        var lastDownload: TransferProgress?
    }

    private let queue: DispatchQueue?
    private let state: Locked<State>

    /// Creates a reporter that runs `handler` on `queue`, or where the event happens when `nil`.
    package init(queue: DispatchQueue?, handler: @escaping @Sendable (TransferProgress) -> Void) {
        self.queue = queue
        self.state = Locked(State(handler: handler))
    }

    /// Hands `event` to the handler, on its queue when it has one; nothing once ended.
    package func report(_ event: TransferProgress) {
        // Queued under the lock, so events reach a queue in the order they were reported.
        let inline = state.withLock { state -> (@Sendable (TransferProgress) -> Void)? in
            guard let handler = state.handler else { return nil }
            if event.direction == .download { state.lastDownload = event }
            guard let queue else { return handler }
            queue.async { handler(event) }
            return nil
        }
        inline?(event)
    }

    /// Reports a whole body of `bytes` sent at once, as a fake or a replay does; nothing for an
    /// empty body, as a transport that never sends a byte reports nothing.
    package func reportUpload(of bytes: Int) {
        guard bytes > 0 else { return }
        report(TransferProgress(direction: .upload, completedBytes: Int64(bytes), totalBytes: Int64(bytes)))
    }

    /// Reports `completed` of `total` response bytes received.
    package func reportDownload(_ completed: Int, of total: Int) {
        report(
            TransferProgress(direction: .download, completedBytes: Int64(completed), totalBytes: Int64(total))
        )
    }

    /// Ends the reporter with the answer: a completed download event of `receivedBytes` first,
    /// unless the last download event already counted them all.
    ///
    /// What answers without a transport of its own (a cache hit, a coalesced follower, a
    /// dispatcher that counts nothing) still ends the bar at full.
    package func finish(receivedBytes: Int) {
        let count = Int64(receivedBytes)
        let last = state.withLock { $0.lastDownload }
        if last?.completedBytes != count {
            report(TransferProgress(direction: .download, completedBytes: count, totalBytes: count))
        }
        end()
    }

    /// Ends the reporter: no event runs after this one, except those already queued.
    package func end() {
        state.withLock { $0.handler = nil }
    }
}

extension RequestData {
    /// Where this request's progress goes, when its caller asked for it; passed along with the
    /// request by every policy that forwards it.
    package var progress: ProgressReporter? {
        get { marks.progress }
        set { marks.progress = newValue }
    }

    /// This request carrying `reporter`, for ``NetworkDispatcher``'s progress forms.
    package func reportingProgress(to reporter: ProgressReporter) -> RequestData {
        var copy = self
        copy.marks.progress = reporter
        return copy
    }
}
