import Dispatch
import Errand
import ErrandSync
import Testing

/// Records progress events on a serial queue of its own and counts those that arrive elsewhere.
package final class ProgressRecorder: Sendable {
    package let queue = DispatchQueue(label: "errand.tests.progress")
    private let key = DispatchSpecificKey<Bool>()
    private let state = Locked<(events: [TransferProgress], offQueue: Int)>(([], 0))

    /// Creates a recorder with no events.
    package init() {
        queue.setSpecific(key: key, value: true)
    }

    /// The events so far, once those already queued have run.
    package var events: [TransferProgress] { queue.sync { state.withLock { $0.events } } }
    /// The events recorded so far, without waiting for the queue: for code running on it.
    package var eventsSoFar: [TransferProgress] { state.withLock { $0.events } }
    /// The events that arrived off ``queue``.
    package var offQueue: Int { state.withLock { $0.offQueue } }
    /// The upload events so far.
    package var uploads: [TransferProgress] { events.filter { $0.direction == .upload } }
    /// The download events so far.
    package var downloads: [TransferProgress] { events.filter { $0.direction == .download } }

    /// The handler to pass as `progress`.
    package var record: @Sendable (TransferProgress) -> Void {
        { [key, state] event in
            let onQueue = DispatchQueue.getSpecific(key: key) == true
            state.withLock { state in
                state.events.append(event)
                if !onQueue { state.offQueue += 1 }
            }
        }
    }

    /// Dispatches with progress and waits for the outcome; events queued before it are in ``events``.
    package func send(_ request: RequestData, through dispatcher: any NetworkDispatcher)
        async throws(NetworkError) -> NetworkResponse
    {
        let probe = CallbackProbe<NetworkResponse>()
        dispatcher.dispatch(
            request: request, progressQueue: queue, progress: record, onSuccess: probe.onSuccess,
            onError: probe.onError)
        let result = await probe.first()
        #expect(probe.deliveries.count == 1)
        return try result.get()
    }

    /// Whether each event's count is at least the one before it.
    package static func isMonotonic(_ events: [TransferProgress]) -> Bool {
        zip(events, events.dropFirst()).allSatisfy { $0.completedBytes <= $1.completedBytes }
    }
}
