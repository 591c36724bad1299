import Errand
import Observation

/// A view model for a form that sends something: submit, a submitting flag, the last result or
/// error, and no double submit.
///
/// ```swift
/// let form = MutationViewModel(dispatcher: api) { (draft: UserDraft) in CreateUser(draft) }
/// form.submit(draft)      // isSubmitting until it answers; then lastResult or lastError
/// ```
///
/// A submit while one is running is refused: it returns the running task and sends nothing, so
/// a button tapped twice creates one record. Observable; main-actor isolated, and so `Sendable`.
@Observable @MainActor
public final class MutationViewModel<Input, Output: Sendable> {
    /// Whether a submit is running.
    public private(set) var isSubmitting = false
    /// The answer to the last submit that succeeded.
    public private(set) var lastResult: Output?
    /// Why the last submit failed; cleared when the next one starts.
    public private(set) var lastError: NetworkError?

    @ObservationIgnored private let mutation: @MainActor (Input) async throws -> Output
    @ObservationIgnored private let work = WorkSlot()

    /// Creates a view model that runs `mutation` for each submit.
    ///
    /// - Parameter mutation: Sends the input; it should end promptly when its task is cancelled
    ///   (requests sent with `execute` do).
    public init(mutation: @escaping @MainActor (Input) async throws -> Output) {
        self.mutation = mutation
    }

    /// Creates a view model that sends the request `makeRequest` builds from each input.
    ///
    /// - Parameters:
    ///   - dispatcher: What sends the requests; `DefaultDispatcher.current` (read now) by default.
    ///   - makeRequest: Builds the request for an input.
    public convenience init<Request: RequestType>(
        dispatcher: any NetworkDispatcher = DefaultDispatcher.current,
        request makeRequest: @escaping @MainActor (Input) -> Request
    ) where Request.ResponseType == Output {
        self.init { input async throws -> Output in
            try await makeRequest(input).exchange(through: dispatcher).value
        }
    }

    /// Sends `input`, unless a submit is running.
    ///
    /// - Parameter input: What to send.
    /// - Returns: The task that sends it, or the running one when this submit was refused.
    @discardableResult
    public func submit(_ input: Input) -> Task<Void, Never> {
        if let running = work.task { return running }
        isSubmitting = true
        lastError = nil
        let mutation = mutation
        return work.start { [weak self] generation in
            let result = await Result.running { try await mutation(input) }
            guard let self, self.work.isCurrent(generation) else { return }
            self.isSubmitting = false
            switch result {
            case .success(let output): self.lastResult = output
            case .failure(let error): self.lastError = error
            }
        }
    }

    /// Cancels the running submit; the server may still have received it.
    public func cancel() {
        guard work.isRunning else { return }
        work.cancel()
        isSubmitting = false
    }
}
