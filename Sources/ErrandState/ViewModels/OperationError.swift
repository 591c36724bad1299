import Errand

extension NetworkError {
    /// The `NetworkError` a view model shows for whatever its operation threw.
    ///
    /// Operations are plain `async throws` closures, so that `try await request.execute(…)`
    /// fits in them; Errand only ever throws `NetworkError`, which passes through. A cancelled
    /// task's `CancellationError` is `cancelled`; any other error, thrown by the app's own code,
    /// is `invalidRequest` with that error as its cause.
    static func fromOperation(_ error: any Error) -> NetworkError {
        switch error {
        case let error as NetworkError:
            error
        case is CancellationError:
            NetworkError(code: .cancelled, message: "The request was cancelled.", underlyingError: error)
        default:
            NetworkError(
                code: .invalidRequest, message: "The operation failed: \(error)", underlyingError: error)
        }
    }
}

extension Result where Failure == NetworkError {
    /// What a view model's operation gave: its value, or what it threw as
    /// `NetworkError.fromOperation(_:)` shows it.
    ///
    /// - Parameter operation: The app's operation, run once on the main actor.
    /// - Returns: The value, or the failure.
    @MainActor
    static func running(_ operation: @MainActor () async throws -> Success) async -> Self {
        do {
            return .success(try await operation())
        } catch {
            return .failure(.fromOperation(error))
        }
    }
}
