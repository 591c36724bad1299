import Dispatch

extension RequestType {
    /// Sends the request through `dispatcher`, whatever stack it is, reporting progress, then
    /// validates, decodes and calls back exactly once.
    ///
    /// Progress and the outcome both run on `callbackQueue`, progress first, so on a serial
    /// queue the last progress event comes before `onSuccess`. The request carries the handler
    /// through every policy: a retry or a re-send after a token refresh starts the counts again
    /// from zero, a cache hit or a shared (coalesced) read reports one completed download event
    /// just before the answer. What each piece reports is told at
    /// ``NetworkDispatcher/dispatch(request:progressQueue:progress:onSuccess:onError:)``.
    ///
    /// - Parameters:
    ///   - dispatcher: What sends the request; ``DefaultDispatcher/current`` by default.
    ///   - callbackQueue: Where the callbacks run; the main queue by default, `nil` for any thread.
    ///   - progress: Called with each new count of the upload or the download.
    ///   - onSuccess: Called with the decoded value.
    ///   - onError: Called with the failure: transport, timeout, cancellation, status, decoding.
    /// - Returns: A handle that cancels the request; no progress event runs after it, except
    ///   those already queued.
    @discardableResult
    public func execute(
        dispatcher: any NetworkDispatcher = DefaultDispatcher.current,
        callbackQueue: DispatchQueue? = .main,
        progress: @escaping @Sendable (TransferProgress) -> Void,
        onSuccess: @escaping @Sendable (ResponseType) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        execute(
            dispatcher: dispatcher.reportingProgress(
                to: ProgressReporter(queue: callbackQueue, handler: progress)),
            callbackQueue: callbackQueue, onSuccess: onSuccess, onError: onError)
    }

    /// Sends the request through `dispatcher`, whatever stack it is, reporting progress, and
    /// returns the decoded value.
    ///
    /// Cancelling the task cancels the request and throws `cancelled` promptly. A retry starts
    /// the counts again from zero; see
    /// ``execute(dispatcher:callbackQueue:progress:onSuccess:onError:)``.
    ///
    /// - Parameters:
    ///   - dispatcher: What sends the request; ``DefaultDispatcher/current`` by default.
    ///   - progressQueue: Where `progress` runs; the main queue by default, `nil` for where the
    ///     event happens.
    ///   - progress: Called with each new count of the upload or the download.
    /// - Returns: The decoded value.
    /// - Throws: `NetworkError` (the only error thrown): transport, timeout, cancellation,
    ///   status, decoding.
    public func execute(
        dispatcher: any NetworkDispatcher = DefaultDispatcher.current,
        progressQueue: DispatchQueue? = .main,
        progress: @escaping @Sendable (TransferProgress) -> Void
    ) async throws -> ResponseType {
        let reporting = dispatcher.reportingProgress(
            to: ProgressReporter(queue: progressQueue, handler: progress))
        return try await exchange(through: reporting).value
    }
}
