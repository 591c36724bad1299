import Errand
import Foundation

extension ReplayDispatcher {
    /// Delivers the last entry of `chain`, at once or after the recorded time, and fails with
    /// `timedOut` at the request's deadline when the recorded time is longer; its progress is
    /// replayed along the way (``ReplayProgress``).
    func serve(
        _ chain: [Int], for request: RequestData, onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        let entries = state.withLock { state in chain.map { state.log.entries[$0] } }
        guard let last = entries.last else {
            onError(NetworkError(code: .unmatchedRequest, message: "No recording.", request: request))
            return CancellableAction.none
        }
        let result = Recording(entry: last).replay(for: request)
        let wait = ReplayWait(
            entries: entries, timing: configuration.timing, timeout: request.timeout ?? configuration.timeout)
        let progress = ReplayProgress(request: request, answer: result, entries: entries, wait: wait)
        guard let delay = wait.delay else {
            progress.reportAll()
            switch result {
            case .success(let response): onSuccess(response)
            case .failure(let error): onError(error)
            }
            return CancellableAction.none
        }
        let clock = configuration.clock
        return PolicyCall.start(request: request, onSuccess: onSuccess, onError: onError) {
            () async throws(NetworkError) -> NetworkResponse in
            do {
                try await progress.sleep(for: delay, on: clock)
            } catch {
                throw NetworkError(code: .cancelled, message: "The request was cancelled.", request: request)
            }
            guard !wait.expires else {
                throw NetworkError(
                    code: .timedOut,
                    message: "No complete response within the request's deadline of \(wait.timeout) seconds: "
                        + "the recording took \(wait.recordedMilliseconds) ms, replayed with timing "
                        + "\(wait.timing).",
                    request: request)
            }
            return try result.get()
        }
    }
}
