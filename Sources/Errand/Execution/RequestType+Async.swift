extension RequestType {
    /// Sends the request and returns the decoded value.
    ///
    /// Built on the same path as the callback form. Cancelling the task cancels the request and
    /// throws `cancelled` promptly. The call resumes on the caller's own isolation; it hops to
    /// no queue by itself.
    ///
    /// The only error thrown is a `NetworkError`. It is declared with untyped `throws` on
    /// purpose: with `throws(NetworkError)`, Swift 6.3 crashes compiling the common test pattern
    /// `catch let error as NetworkError { #expect(…) }`. Catch it as the README's
    /// "Catching errors" shows.
    ///
    /// - Parameter dispatcher: What sends the request; ``DefaultDispatcher/current`` by default.
    /// - Returns: The decoded response.
    /// - Throws: `NetworkError` for transport, timeout, cancellation, status and decoding failures.
    @inlinable
    public func execute(dispatcher: any NetworkDispatcher = DefaultDispatcher.current) async throws
        -> ResponseType
    {
        // Its own path rather than `exchange(through:).value`: a (value, response) pair has no
        // type of its own, so the runtime would look one up on every request.
        // Inlinable, so that the bridge is specialised for the caller's response type where the
        // request is declared: generic there, every request asked the runtime for the slot's
        // and the result's types and moved the value through their witnesses.
        try await withCancellableCallback { complete in
            send(
                through: dispatcher, onValue: { value, _ in complete(.success(consume value)) },
                onError: { complete(.failure($0)) })
        } onCancelledBeforeStart: {
            .cancelled(data)
        }
    }

    /// Sends the request and returns the decoded value together with the response it came from,
    /// for callers that also want the status or headers.
    ///
    /// - Parameter dispatcher: What sends the request; ``DefaultDispatcher/current`` by default.
    /// - Returns: The decoded value and the `NetworkResponse`.
    /// - Throws: `NetworkError` only, as ``execute(dispatcher:)`` does.
    public func executeWithResponse(dispatcher: any NetworkDispatcher = DefaultDispatcher.current)
        async throws -> (value: ResponseType, response: NetworkResponse)
    {
        try await exchange(through: dispatcher)
    }

    /// The async form with its error type known to the compiler, for the package's own callers.
    package func exchange(through dispatcher: any NetworkDispatcher)
        async throws(NetworkError) -> (value: ResponseType, response: NetworkResponse)
    {
        try await withCancellableCallback { complete in
            send(
                through: dispatcher,
                onValue: { value, response in complete(.success((consume value, response))) },
                onError: { complete(.failure($0)) })
        } onCancelledBeforeStart: {
            .cancelled(data)
        }
    }
}
