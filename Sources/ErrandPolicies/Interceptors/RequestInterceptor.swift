import Errand

/// Changes a request before it is sent: headers, query items, body, anything in `RequestData`.
///
/// Interceptors may suspend (to read a value from storage, say) and may throw; a throw ends the
/// request with a `NetworkError` that keeps the thrown error.
public protocol RequestInterceptor: Sendable {
    /// Returns the request to send instead of `request`.
    ///
    /// - Throws: Any error, to stop the request.
    func intercept(_ request: RequestData) async throws -> RequestData
}

/// Sees a response before it is handed back, with `NetworkResponse.request` set, and may
/// change it or fail it.
public protocol ResponseInterceptor: Sendable {
    /// Returns the response to hand back instead of `response`.
    ///
    /// - Throws: Any error, to fail the request.
    func intercept(_ response: NetworkResponse) async throws -> NetworkResponse
}

/// A request interceptor made from a closure.
public struct ClosureRequestInterceptor: RequestInterceptor {
    private let body: @Sendable (RequestData) async throws -> RequestData

    /// Creates an interceptor that runs `body`.
    public init(_ body: @escaping @Sendable (RequestData) async throws -> RequestData) {
        self.body = body
    }

    /// Runs the closure.
    public func intercept(_ request: RequestData) async throws -> RequestData {
        try await body(request)
    }
}

/// A response interceptor made from a closure.
public struct ClosureResponseInterceptor: ResponseInterceptor {
    private let body: @Sendable (NetworkResponse) async throws -> NetworkResponse

    /// Creates an interceptor that runs `body`.
    public init(_ body: @escaping @Sendable (NetworkResponse) async throws -> NetworkResponse) {
        self.body = body
    }

    /// Runs the closure.
    public func intercept(_ response: NetworkResponse) async throws -> NetworkResponse {
        try await body(response)
    }
}
