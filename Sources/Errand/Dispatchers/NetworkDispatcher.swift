/// Something that moves a request and hands back the raw response: the one protocol that the
/// transport, the fakes and every policy conform to.
///
/// A dispatcher calls exactly one of its two callbacks, exactly once, from any thread. It does
/// not validate the status or decode: a 404 is a successful dispatch, and `execute` decides.
/// Policies (auth, retry, logging, …) are dispatchers that wrap another dispatcher.
public protocol NetworkDispatcher: Sendable {
    /// Sends `request` and reports the response or the failure.
    ///
    /// - Parameters:
    ///   - request: What to send.
    ///   - onSuccess: Called with the response, whatever its status.
    ///   - onError: Called when no response could be had: transport failure, timeout,
    ///     cancellation, an invalid request.
    /// - Returns: A handle that cancels the request.
    @discardableResult
    func dispatch(
        request: RequestData,
        onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable
}

extension NetworkDispatcher {
    /// Sends `request` and returns its response, whatever its status.
    ///
    /// Cancelling the task cancels the request and throws `cancelled` promptly.
    ///
    /// Declared with untyped `throws` so that `catch let error as NetworkError` compiles
    /// everywhere (see "Catching errors" in the README); `NetworkError` is the only error thrown.
    ///
    /// - Parameter request: The request to send.
    /// - Returns: The response, whatever its status.
    /// - Throws: `NetworkError` when no response could be had.
    public func dispatch(_ request: RequestData) async throws -> NetworkResponse {
        try await response(for: request)
    }

    /// ``dispatch(_:)`` with its error type known to the compiler, for the package's own callers.
    package func response(for request: RequestData) async throws(NetworkError) -> NetworkResponse {
        try await withCancellableCallback { complete in
            dispatch(
                request: request, onSuccess: { complete(.success($0)) },
                onError: { complete(.failure($0.attaching(request))) })
        } onCancelledBeforeStart: {
            .cancelled(request)
        }
    }
}
