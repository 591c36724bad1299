import Dispatch

extension NetworkDispatcher {
    /// Sends `request` through this dispatcher, whatever stack it is, and reports how far its
    /// upload and its download have come.
    ///
    /// The request carries the handler through every policy to what moves its bytes:
    /// - **The transport** (``URLSessionDispatcher``) counts the body's bytes sent out of its size,
    ///   and the response body's bytes received out of its `Content-Length`, or out of an unknown
    ///   total (`nil`, so ``TransferProgress/fraction`` is `nil`) for a chunked or compressed
    ///   answer. Counts never go back within one attempt.
    /// - **A retry or a re-send after a token refresh** sends the request again, and its counts
    ///   start again from zero: a progress bar goes back to the start with each attempt.
    /// - **A queue** holds the request: no event until it is sent.
    /// - **A cache hit, or a read that shares another caller's flight** (coalescing) moves no
    ///   bytes of its own: no event until one completed download event of the body's size, just
    ///   before the answer.
    /// - **``InMemoryDispatcher``** reports one upload event of the body's size when the request
    ///   arrives and one download event of the stub's body when it answers (after the stub's
    ///   delay, on its clock); a replay reports them with the recorded timing.
    ///
    /// Whatever answered, a successful request ends with a download event that carries the full
    /// count (`completedBytes == totalBytes`, or the bytes received when the total is unknown),
    /// handed to `progressQueue` before `onSuccess` is called. No event runs after the request
    /// ended with an error or a cancel, except those already queued. An empty body sends no
    /// upload event; an empty response ends with `0` of `0` (a ``TransferProgress/fraction`` of 1).
    ///
    /// - Parameters:
    ///   - request: What to send.
    ///   - progressQueue: Where `progress` runs; the main queue by default. `nil` runs it where the
    ///     event happens (the transport's serial delegate queue), which server code and tests
    ///     may prefer.
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
        reportingProgress(to: ProgressReporter(queue: progressQueue, handler: progress))
            .dispatch(request: request, onSuccess: onSuccess, onError: onError)
    }

    /// Sends `request`, reporting its progress as
    /// ``dispatch(request:progressQueue:progress:onSuccess:onError:)`` does, and returns its
    /// response, whatever its status.
    ///
    /// Cancelling the task cancels the request and throws `cancelled` promptly.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - progressQueue: Where `progress` runs; the main queue by default, `nil` for where the
    ///     event happens.
    ///   - progress: Called with each new count of the upload or the download; a retry starts
    ///     the counts again from zero.
    /// - Returns: The response, whatever its status.
    /// - Throws: `NetworkError` when no response could be had.
    public func dispatch(
        _ request: RequestData, progressQueue: DispatchQueue? = .main,
        progress: @escaping @Sendable (TransferProgress) -> Void
    ) async throws -> NetworkResponse {
        try await reportingProgress(to: ProgressReporter(queue: progressQueue, handler: progress))
            .response(for: request)
    }

    /// This dispatcher with every request it sends carrying `reporter`.
    package func reportingProgress(to reporter: ProgressReporter) -> any NetworkDispatcher {
        ProgressReportingDispatcher(base: self, reporter: reporter)
    }
}

/// A dispatcher whose requests carry one caller's progress reporter, and which ends the
/// reporter with the outcome: the one place every progress form goes through.
private struct ProgressReportingDispatcher: NetworkDispatcher {
    let base: any NetworkDispatcher
    let reporter: ProgressReporter

    func dispatch(
        request: RequestData,
        onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        let handle = base.dispatch(
            request: request.reportingProgress(to: reporter),
            onSuccess: { [reporter] response in
                reporter.finish(receivedBytes: response.body.count)
                onSuccess(response)
            },
            onError: { [reporter] error in
                reporter.end()
                onError(error)
            })
        return CancellableAction { [reporter] in
            // Ended first, so that nothing the cancel sets off reports an event.
            reporter.end()
            handle.cancel()
        }
    }
}
