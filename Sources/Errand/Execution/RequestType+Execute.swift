import Dispatch
import ErrandSync

extension RequestType {
    /// Sends the request, validates the status, decodes the body, and calls back exactly once.
    ///
    /// Decoding happens off the callback queue; only the callback itself runs there.
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
        send(through: dispatcher) { result in
            let deliver: @Sendable () -> Void = {
                switch result {
                case .success(let decoded): onSuccess(decoded.value)
                case .failure(let error): onError(error)
                }
            }
            if let callbackQueue {
                callbackQueue.async(execute: deliver)
            } else {
                deliver()
            }
        }
    }

    /// The one path every form of `execute` takes: prepare, dispatch, validate, decode, once.
    func send(
        through dispatcher: any NetworkDispatcher,
        completion:
            @escaping @Sendable (Result<(value: ResponseType, response: NetworkResponse), NetworkError>) ->
            Void
    ) -> any Cancellable {
        var request = data
        if !ResponseDecoding.isRaw(ResponseType.self), !request.headers.contains("Accept") {
            request.headers.add("Accept", "application/json")
        }
        let call = ExecutionCall(request: request, completion: completion)
        let prepared = request
        do {
            try request.requireValid()
        } catch {
            call.finish(.failure(error))
            return call
        }
        let handle = dispatcher.dispatch(
            request: request,
            onSuccess: { response in call.finish(self.process(response, for: prepared)) },
            onError: { error in call.finish(.failure(error.attaching(prepared))) }
        )
        call.attach(handle)
        return call
    }

    /// Validates and decodes a dispatched response.
    private func process(_ response: NetworkResponse, for request: RequestData)
        -> Result<(value: ResponseType, response: NetworkResponse), NetworkError>
    {
        var response = response
        if response.request == nil { response.request = request }
        do {
            try validate(response)
        } catch var error as NetworkError {
            error.request = error.request ?? request
            error.response = error.response ?? response
            return .failure(error)
        } catch {
            return .failure(
                NetworkError(
                    code: .unacceptableStatus, message: "The response was rejected: \(error)",
                    request: request,
                    response: response, underlyingError: error))
        }
        do {
            return .success((try decode(response), response))
        } catch {
            return .failure(ResponseDecoding.error(error, decoding: ResponseType.self, response: response))
        }
    }
}

/// One execution in flight: makes sure its completion runs exactly once, whichever of the
/// dispatcher's answer and a cancel comes first.
final class ExecutionCall<Value: Sendable>: Cancellable {
    private struct State {
        var completion: (@Sendable (Result<Value, NetworkError>) -> Void)?
        var handle: (any Cancellable)?
    }

    private let request: RequestData
    private let state: Locked<State>

    init(request: RequestData, completion: @escaping @Sendable (Result<Value, NetworkError>) -> Void) {
        self.request = request
        self.state = Locked(State(completion: completion))
    }

    /// Keeps the dispatcher's handle for ``cancel()``; drops it when the call already finished.
    func attach(_ handle: any Cancellable) {
        state.withLock { state in
            if state.completion != nil { state.handle = handle }
        }
    }

    /// Completes the call, the first time only.
    func finish(_ result: Result<Value, NetworkError>) {
        let completion = state.withLock { state in
            defer {
                state.completion = nil
                state.handle = nil
            }
            return state.completion
        }
        completion?(result)
    }

    /// Cancels the dispatch and completes with `cancelled` now, without waiting for the dispatcher.
    func cancel() {
        let (completion, handle) = state.withLock { state in
            defer {
                state.completion = nil
                state.handle = nil
            }
            return (state.completion, state.handle)
        }
        handle?.cancel()
        completion?(.failure(.cancelled(request)))
    }
}
