extension RequestType {
    /// Sends the request and returns the decoded value.
    ///
    /// Built on the same path as the callback form. Cancelling the task cancels the request and
    /// throws `cancelled` promptly. The call resumes on the caller's own isolation; it hops to
    /// no queue by itself.
    ///
    /// - Parameter dispatcher: What sends the request; ``DefaultDispatcher/current`` by default.
    /// - Returns: The decoded response.
    /// - Throws: `NetworkError` for transport, timeout, cancellation, status and decoding failures.
    public func execute(dispatcher: any NetworkDispatcher = DefaultDispatcher.current)
        async throws(NetworkError)
        -> ResponseType
    {
        try await executeWithResponse(dispatcher: dispatcher).value
    }

    /// Sends the request and returns the decoded value together with the response it came from,
    /// for callers that also want the status or headers.
    ///
    /// - Parameter dispatcher: What sends the request; ``DefaultDispatcher/current`` by default.
    /// - Returns: The decoded value and the `NetworkResponse`.
    /// - Throws: `NetworkError`, as ``execute(dispatcher:)`` does.
    public func executeWithResponse(dispatcher: any NetworkDispatcher = DefaultDispatcher.current)
        async throws(NetworkError) -> (value: ResponseType, response: NetworkResponse)
    {
        let request = data
        return try await withCancellableCallback { complete in
            send(through: dispatcher, completion: complete)
        } onCancelledBeforeStart: {
            .cancelled(request)
        }
    }
}
