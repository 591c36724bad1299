import Errand
import ErrandSync
import Foundation

extension RequestQueue {
    /// The deadline for a timeout in seconds, or `nil` for none: `.infinity`, anything longer
    /// than about 30 years, and values the request itself refuses (NaN, zero, negative), which
    /// the dispatcher beneath reports with `invalidRequest` when the request's turn comes.
    static func deadlineSeconds(_ timeout: TimeInterval) -> Double? {
        guard timeout > 0, timeout < 1e9 else { return nil }
        return timeout
    }

}

extension RequestQueue {
    /// Waits in line until a slot is free, and returns the request to send (its timeout shortened
    /// by the wait); cancelling the task takes it out of line with `cancelled`.
    func turn(for request: RequestData) async throws(NetworkError) -> RequestData {
        if claimSlot() { return request }
        if Task.isCancelled { throw .cancelled(request) }
        let ticket = Locked<UInt64?>(nil)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<RequestData, NetworkError>, Never>) in
                let id = enter(
                    request, admit: { continuation.resume(returning: .success($0)) },
                    reject: { continuation.resume(returning: .failure($0)) })
                guard let id else { return continuation.resume(returning: .success(request)) }
                ticket.withLock { $0 = id }
                // A cancel that came before the ticket was recorded found nothing to take out.
                if Task.isCancelled { cancel(id) }
            }
        } onCancel: {
            if let id = ticket.withLock({ $0 }) { cancel(id) }
        }
        return try result.get()
    }
}
