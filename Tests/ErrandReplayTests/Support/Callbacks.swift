import Errand
import Foundation
import Synchronization

/// Waits for a callback-style call to deliver, and counts how often each callback fires.
final class CallbackProbe<Value: Sendable>: Sendable {
    private let results = Mutex<[Result<Value, NetworkError>]>([])
    private let waiters = Mutex<[CheckedContinuation<Result<Value, NetworkError>, Never>]>([])

    var onSuccess: @Sendable (Value) -> Void { { self.record(.success($0)) } }
    var onError: @Sendable (NetworkError) -> Void { { self.record(.failure($0)) } }

    /// Every delivery so far.
    var deliveries: [Result<Value, NetworkError>] { results.withLock { $0 } }

    /// The first delivery, waiting for it if needed.
    func first() async -> Result<Value, NetworkError> {
        await withCheckedContinuation { continuation in
            let ready: Result<Value, NetworkError>? = results.withLock { results in
                if let first = results.first { return first }
                waiters.withLock { $0.append(continuation) }
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    private func record(_ result: Result<Value, NetworkError>) {
        let isFirst = results.withLock { results in
            results.append(result)
            return results.count == 1
        }
        guard isFirst else { return }
        let pending = waiters.withLock { waiters in
            defer { waiters.removeAll() }
            return waiters
        }
        for waiter in pending { waiter.resume(returning: result) }
    }
}
