import Dispatch
import ErrandSync

extension RequestType {
    /// Sends the request, validates the status, decodes the body, and calls back exactly once.
    ///
    /// Decoding happens off the callback queue; only the callback itself runs there. A large
    /// body that a transport delivers on its own queue is decoded on the global concurrent queue,
    /// so responses arriving together decode in parallel; small bodies (under 16 KiB) and answers
    /// given during `dispatch` (in-memory stubs, cache hits) are decoded where they arrive.
    ///
    /// - Parameters:
    ///   - dispatcher: What sends the request; ``DefaultDispatcher/current`` by default.
    ///   - callbackQueue: Where the callback runs; the main queue by default (as UI code
    ///     expects). Pass `nil` to be called on whatever thread finished the request, which
    ///     server code and tests usually want.
    ///   - onSuccess: Called with the decoded value.
    ///   - onError: Called with the failure: transport, timeout, cancellation, status, decoding.
    /// - Returns: A handle that cancels the request; `onError` then gets `cancelled` promptly.
    @discardableResult
    public func execute(
        dispatcher: any NetworkDispatcher = DefaultDispatcher.current,
        callbackQueue: DispatchQueue? = .main,
        onSuccess: @escaping @Sendable (ResponseType) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        guard let callbackQueue else {
            return send(through: dispatcher, onValue: { value, _ in onSuccess(value) }, onError: onError)
        }
        return send(
            through: dispatcher,
            onValue: { value, _ in callbackQueue.async { onSuccess(value) } },
            onError: { error in callbackQueue.async { onError(error) } })
    }

    /// The one path every form of `execute` takes: prepare, dispatch, validate, decode, once.
    ///
    /// Exactly one of `onValue` and `onError` is called, exactly once.
    @usableFromInline
    func send(
        through dispatcher: any NetworkDispatcher,
        onValue: @escaping @Sendable (consuming ResponseType, NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        var request = data
        if !ResponseDecoding.isRaw(ResponseType.self) {
            if request.headers.isEmpty {
                // Most requests bring no headers: share one set rather than build it each time.
                request.headers = ExecutionDefaults.acceptJSON
            } else if !request.headers.contains("Accept") {
                request.headers.add("Accept", "application/json")
            }
        }
        // The two transports run this same check first thing and fail the same way, so it is
        // left to them rather than done twice; before a policy it is done here, so that no
        // policy sees (logs, counts, keys) a request that cannot be sent.
        // Compared as types, not cast: both classes are final, and `is` on an existential
        // goes through the runtime's general cast, which looks up protocol conformances.
        // This is for cost alone (`is` gives the same answer): see `Benchmarks/README.md`,
        // "Why some code is shaped as it is".
        let kind = type(of: dispatcher)
        if !(kind == URLSessionDispatcher.self || kind == InMemoryDispatcher.self) {
            do {
                try request.requireValid()
            } catch {
                onError(error)
                return FinishedCancellable()
            }
        }
        let call = ExecutionCall(request: request, onError: onError)
        let handle = dispatcher.dispatch(
            request: request,
            onSuccess: { response in
                guard ConcurrentDecoding.hops(ResponseType.self, body: response.body.count, call: call) else {
                    self.complete(call, with: response, onValue: onValue)
                    return
                }
                ConcurrentDecoding.queue.async {
                    // A cancel that came while the hop waited has ended the call: nothing to decode.
                    guard !call.isFinished else { return }
                    self.complete(call, with: response, onValue: onValue)
                }
            },
            onError: { error in call.fail(error.attaching(call.request)) }
        )
        call.attach(handle)
        return call
    }

    /// Validates and decodes a dispatched response, and ends `call` with the outcome.
    ///
    /// The value is delivered only when the call has not ended meanwhile; after a cancel it is dropped.
    private func complete(
        _ call: ExecutionCall, with response: NetworkResponse,
        onValue: @Sendable (consuming ResponseType, NetworkResponse) -> Void
    ) {
        guard response.request == nil else {
            return finish(call, with: response, onValue: onValue)
        }
        // Copied only to name its request: most transports have named it already.
        var named = response
        named.request = call.request
        finish(call, with: named, onValue: onValue)
    }

    /// Validates and decodes a response that names its request, and ends `call` with the outcome.
    private func finish(
        _ call: ExecutionCall, with response: NetworkResponse,
        onValue: @Sendable (consuming ResponseType, NetworkResponse) -> Void
    ) {
        do throws(NetworkError) {
            let value = try process(response, for: call.request)
            if call.claim() { onValue(consume value, response) }
        } catch {
            call.fail(error)
        }
    }

    /// Validates and decodes `response`.
    private func process(_ response: NetworkResponse, for request: RequestData) throws(NetworkError)
        -> ResponseType
    {
        do {
            try validate(response)
        } catch var error as NetworkError {
            error.request = error.request ?? request
            error.response = error.response ?? response
            throw error
        } catch {
            throw NetworkError(
                code: .unacceptableStatus, message: "The response was rejected: \(error)", request: request,
                response: response, underlyingError: error)
        }
        do {
            return try decode(response)
        } catch {
            throw ResponseDecoding.error(error, decoding: ResponseType.self, response: response)
        }
    }
}

/// Values `execute` builds once for every request.
enum ExecutionDefaults {
    /// `Accept: application/json` alone.
    static let acceptJSON: HTTPHeaders = ["Accept": "application/json"]
}
