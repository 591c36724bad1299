import Errand

/// A policy whose work is plain async code.
///
/// A policy that wraps another one awaits its ``send(_:)`` directly, so a whole chain of
/// policies runs in one task: only the outermost bridges to callbacks (with ``PolicyCall``).
/// Without this, each layer would start a task of its own and hop through a continuation.
///
/// Where a policy has nothing to wait for (a cache miss, the first attempt of a retry, auth with
/// tokens known to be valid, ready-made interceptors), its `dispatch` works on callbacks and
/// starts no task at all, so a chain of such policies costs the transport no hop; a task starts
/// only when one of them has to wait (a backoff, a token refresh).
protocol AsyncPolicy: NetworkDispatcher {
    /// Sends `request` through the policy and what it wraps.
    func send(_ request: RequestData) async throws(NetworkError) -> NetworkResponse
}

extension NetworkDispatcher {
    /// Sends `request` through this dispatcher: inline when it is an ``AsyncPolicy``, else
    /// through its callbacks.
    func sendInline(_ request: RequestData) async throws(NetworkError) -> NetworkResponse {
        if let policy = self as? any AsyncPolicy { return try await policy.send(request) }
        return try await response(for: request)
    }
}
