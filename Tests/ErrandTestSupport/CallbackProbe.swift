import Errand
import ErrandSync
import Foundation
import Testing

/// Waits for a callback-style call to deliver, and counts how often each callback fires.
package final class CallbackProbe<Value: Sendable>: Sendable {
    private let results = Locked<[Result<Value, NetworkError>]>([])
    private let waiters = Locked<[CheckedContinuation<Result<Value, NetworkError>, Never>]>([])

    /// Creates a probe with no deliveries.
    package init() {}

    /// The success callback to hand to the call under test.
    package var onSuccess: @Sendable (Value) -> Void { { self.record(.success($0)) } }
    /// The error callback to hand to the call under test.
    package var onError: @Sendable (NetworkError) -> Void { { self.record(.failure($0)) } }

    /// Every delivery so far.
    package var deliveries: [Result<Value, NetworkError>] { results.withLock { $0 } }

    /// The first delivery's error, failing the test when it was a success.
    package func failure(sourceLocation: SourceLocation = #_sourceLocation) async throws -> NetworkError {
        switch await first() {
        case .failure(let error):
            return error
        case .success(let value):
            Issue.record("expected a failure, got \(value)", sourceLocation: sourceLocation)
            throw UnexpectedSuccess()
        }
    }

    /// Thrown by ``failure(sourceLocation:)`` when the call succeeded.
    package struct UnexpectedSuccess: Error {}

    /// The first delivery, waiting for it if needed.
    package func first() async -> Result<Value, NetworkError> {
        await withCheckedContinuation { continuation in
            // One lock for both lists, so a delivery between the check and the append is not missed.
            let ready: Result<Value, NetworkError>? = results.withLock { results in
                if let first = results.first { return first }
                waiters.withLock { $0.append(continuation) }
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    private func record(_ result: Result<Value, NetworkError>) {
        let pending: [CheckedContinuation<Result<Value, NetworkError>, Never>] = results.withLock {
            results in
            results.append(result)
            guard results.count == 1 else { return [] }
            return waiters.withLock { waiters in
                defer { waiters.removeAll() }
                return waiters
            }
        }
        for waiter in pending { waiter.resume(returning: result) }
    }
}
