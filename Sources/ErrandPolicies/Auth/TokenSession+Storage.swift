import Errand
import Foundation

extension TokenSession {
    /// The stored tokens; a storage failure becomes a `tokenStorage` error for `request`.
    func read(for request: RequestData?) async throws(NetworkError) -> TokenPair? {
        // Signed out, but the clear failed: what the storage still holds is no session's.
        if ledger.holdsEndedTokens { return nil }
        do {
            return try await storage.read()
        } catch {
            throw Self.storageError(error, doing: "read", request: request)
        }
    }

    /// Replaces `expected` with `replacement` (`nil` clears) if the storage still holds it in
    /// session `generation`; whether it did. A storage failure becomes a `tokenStorage` error.
    func replace(_ expected: TokenPair, with replacement: TokenPair?, in generation: UInt64)
        async throws(NetworkError) -> Bool
    {
        do {
            return try await ledger.replace(expected, with: replacement, inSession: generation, in: storage)
        } catch {
            throw Self.storageError(error, doing: "written", request: nil)
        }
    }

    /// `error` as a `tokenStorage` error: kept as it is when the storage already says so, or
    /// says that it is only unavailable for now (`tokenStorageUnavailable`).
    static func storageError(_ error: any Error, doing action: String, request: RequestData?)
        -> NetworkError
    {
        if var error = error as? NetworkError,
            error.code == .tokenStorage || error.code == .tokenStorageUnavailable
        {
            error.request = request ?? error.request
            return error
        }
        return NetworkError(
            code: .tokenStorage,
            message: "The token storage could not be \(action): \(error). Clear the storage and sign in "
                + "again.",
            request: request, underlyingError: error)
    }
}
