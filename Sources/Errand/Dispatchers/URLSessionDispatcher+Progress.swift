import Dispatch

extension URLSessionDispatcher {
    /// Sends `request` and reports how far its upload and its download have come.
    ///
    /// Upload events count the body's bytes sent out of its size; download events count the
    /// response body's bytes received out of its `Content-Length`, or out of an unknown total
    /// (`nil`, so ``TransferProgress/fraction`` is `nil`) for a chunked or compressed answer.
    /// Counts never go back. A completed transfer ends with an event that carries the full count
    /// (`completedBytes == totalBytes`, or the bytes received when the total is unknown), handed
    /// to `progressQueue` before `onSuccess` is called. No event runs after the request ended
    /// with an error or a cancel, except those already queued.
    ///
    /// A dispatcher that owns its session sends every request as a delegate-driven task, so this
    /// one takes the same path as any other, with its counts reported. A dispatcher given your
    /// session sends it through a second session, with a copy of your session's configuration
    /// and a delegate of the dispatcher's own; requests sent with
    /// ``dispatch(request:onSuccess:onError:)`` go through your session.
    ///
    /// - Parameters:
    ///   - request: What to send.
    ///   - progressQueue: Where `progress` runs; the main queue by default. `nil` runs it on the
    ///     session's delegate queue (serial), which server code and tests may prefer.
    ///   - progress: Called with each new count, for either direction.
    ///   - onSuccess: Called with the response, whatever its status, on any thread.
    ///   - onError: Called when no response could be had, on any thread.
    /// - Returns: A handle that cancels the request.
    @discardableResult
    public func dispatch(
        request: RequestData,
        progressQueue: DispatchQueue? = .main,
        progress: @escaping @Sendable (TransferProgress) -> Void,
        onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        send(
            request, reporter: ProgressReporter(queue: progressQueue, handler: progress),
            onSuccess: onSuccess,
            onError: onError)
    }
}

extension RequestType {
    /// Sends the request through `dispatcher`, reporting progress, then validates, decodes and
    /// calls back exactly once.
    ///
    /// Progress and the outcome both run on `callbackQueue`, progress first, so on a serial
    /// queue the last progress event comes before `onSuccess`.
    ///
    /// - Parameters:
    ///   - dispatcher: The dispatcher that sends the request and counts its bytes.
    ///   - callbackQueue: Where the callbacks run; the main queue by default, `nil` for any thread.
    ///   - progress: Called with each new count of the upload or the download.
    ///   - onSuccess: Called with the decoded value.
    ///   - onError: Called with the failure: transport, timeout, cancellation, status, decoding.
    /// - Returns: A handle that cancels the request.
    @discardableResult
    public func execute(
        dispatcher: URLSessionDispatcher,
        callbackQueue: DispatchQueue? = .main,
        progress: @escaping @Sendable (TransferProgress) -> Void,
        onSuccess: @escaping @Sendable (ResponseType) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        let reporting = ProgressReportingDispatcher(
            base: dispatcher, reporter: ProgressReporter(queue: callbackQueue, handler: progress))
        return execute(
            dispatcher: reporting, callbackQueue: callbackQueue, onSuccess: onSuccess, onError: onError)
    }
}

extension RequestType {
    /// Sends the request through `dispatcher`, reporting progress, and returns the decoded value.
    ///
    /// Cancelling the task cancels the request and throws `cancelled` promptly.
    ///
    /// - Parameters:
    ///   - dispatcher: The dispatcher that sends the request and counts its bytes.
    ///   - progressQueue: Where `progress` runs; the main queue by default, `nil` for the
    ///     session's delegate queue.
    ///   - progress: Called with each new count of the upload or the download.
    /// - Returns: The decoded value.
    /// - Throws: `NetworkError` (the only error thrown): transport, timeout, cancellation,
    ///   status, decoding.
    public func execute(
        dispatcher: URLSessionDispatcher,
        progressQueue: DispatchQueue? = .main,
        progress: @escaping @Sendable (TransferProgress) -> Void
    ) async throws -> ResponseType {
        let reporting = ProgressReportingDispatcher(
            base: dispatcher, reporter: ProgressReporter(queue: progressQueue, handler: progress))
        return try await exchange(through: reporting).value
    }
}

/// A `URLSessionDispatcher` seen through one request's progress handler.
private struct ProgressReportingDispatcher: NetworkDispatcher {
    let base: URLSessionDispatcher
    let reporter: ProgressReporter

    func dispatch(
        request: RequestData,
        onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        base.send(request, reporter: reporter, onSuccess: onSuccess, onError: onError)
    }
}
