import Errand

/// A policy whose work is plain async code, written once in ``send(_:)``.
///
/// Each policy's logic exists in one place. Those that wait for something of their own (a
/// backoff, a token refresh, an interceptor) write it as ``send(_:)``, and their callback
/// `dispatch` is one line: ``startSending(request:onSuccess:onError:)``, which runs `send` in a
/// task through ``PolicyCall``. A first attempt and a retry, a valid token and a renewed one, go
/// through the same code.
///
/// A policy wrapping another one awaits its ``send(_:)`` directly (``NetworkDispatcher/sendInline(_:)``),
/// so a whole chain runs in the one task the outermost policy started, instead of a task and a
/// continuation per layer.
///
/// Policies that only act before and after the dispatcher they wrap and wait for nothing of their
/// own (logging, metrics, the cache, and the queue, whose waiting line holds callbacks) keep their
/// steps in plain functions, called by a callback `dispatch` and by an inline ``send(_:)`` that
/// differ only in how they wait for the wrapped dispatcher. Outermost, such a policy starts no task,
/// and its steps run on the thread that delivered the outcome, just before the caller's callback.
protocol AsyncPolicy: NetworkDispatcher {
    /// Sends `request` through the policy and what it wraps.
    func send(_ request: RequestData) async throws(NetworkError) -> NetworkResponse
}

extension AsyncPolicy {
    /// Runs ``send(_:)`` as one dispatch: the callback face of a policy written in async code.
    ///
    /// `request` comes stamped with its session (`SessionStamper`) by the caller: the task may
    /// start after a sign-out or an account switch, and the request belongs to the session it
    /// was made in, not to the one current when the task runs.
    func startSending(
        request: RequestData, onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        PolicyCall.start(request: request, onSuccess: onSuccess, onError: onError) {
            () async throws(NetworkError) in
            try await send(request)
        }
    }
}

extension NetworkDispatcher {
    /// Sends `request` through this dispatcher: inline when it is an ``AsyncPolicy``, else
    /// through its callbacks.
    func sendInline(_ request: RequestData) async throws(NetworkError) -> NetworkResponse {
        if let policy = self as? any AsyncPolicy { return try await policy.send(request) }
        return try await response(for: request)
    }

    /// ``sendInline(_:)``, handing the outcome to `observe` before it is returned or thrown: the
    /// inline form of `dispatch(request:onSuccess:onError:observing:)`, for a policy that watches
    /// requests go by.
    func sendInline(
        _ request: RequestData, observing observe: (Result<NetworkResponse, NetworkError>) -> Void
    ) async throws(NetworkError) -> NetworkResponse {
        let outcome: Result<NetworkResponse, NetworkError>
        do {
            outcome = .success(try await sendInline(request))
        } catch {
            outcome = .failure(error)
        }
        observe(outcome)
        return try outcome.get()
    }
}
