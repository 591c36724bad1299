import Errand

/// A dispatcher that runs request interceptors before, and response interceptors after, the
/// dispatcher it wraps. Made with ``Errand/NetworkDispatcher/intercepted(by:responses:)``.
///
/// Written once, as async code, since an interceptor may suspend: the interceptors and the
/// wrapped dispatcher run in one task (the caller's chain's, or one of its own when it is
/// outermost).
public struct InterceptingDispatcher: WrappingDispatcher, AsyncPolicy {
    /// The dispatcher that sends the intercepted requests.
    public let base: any NetworkDispatcher
    /// Run in order on each request.
    public let requestInterceptors: [any RequestInterceptor]
    /// Run in order on each response.
    public let responseInterceptors: [any ResponseInterceptor]
    /// Stamps each request with the session of the auth policy beneath, when it is made, before
    /// its task starts.
    private let stamper: SessionStamper

    /// Creates a dispatcher that intercepts `base`'s traffic.
    public init(
        base: any NetworkDispatcher, requestInterceptors: [any RequestInterceptor],
        responseInterceptors: [any ResponseInterceptor] = []
    ) {
        self.base = base
        self.requestInterceptors = requestInterceptors
        self.responseInterceptors = responseInterceptors
        self.stamper = SessionStamper(below: base)
    }

    /// Intercepts the request, sends it through the base dispatcher, intercepts the response.
    @discardableResult
    public func dispatch(
        request: RequestData,
        onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        startSending(request: stamper.stamped(request), onSuccess: onSuccess, onError: onError)
    }

    /// Runs the request interceptors, the base dispatcher, then the response interceptors.
    func send(_ request: RequestData) async throws(NetworkError) -> NetworkResponse {
        var request = request
        for interceptor in requestInterceptors {
            request = try await Self.run(interceptor, request: request) { try await $0.intercept(request) }
                .keepingMarks(of: request)
        }
        var response = try await base.sendInline(request)
        if response.request == nil { response.request = request }
        for interceptor in responseInterceptors {
            response = try await Self.run(interceptor, request: request) { [response] in
                try await $0.intercept(response)
            }
        }
        return response
    }

    /// Runs one interceptor, turning what it throws into a `NetworkError` that keeps it.
    private static func run<Interceptor, Value>(
        _ interceptor: Interceptor, request: RequestData, _ body: (Interceptor) async throws -> Value
    ) async throws(NetworkError) -> Value {
        do {
            return try await body(interceptor)
        } catch let error as NetworkError {
            throw error.attaching(request)
        } catch is CancellationError {
            throw .cancelled(request)
        } catch {
            throw NetworkError(
                code: .invalidRequest, message: "The interceptor \(Interceptor.self) failed: \(error)",
                request: request, underlyingError: error)
        }
    }
}

extension NetworkDispatcher {
    /// This dispatcher with interceptors around it, run in the order given.
    ///
    /// - Parameters:
    ///   - requestInterceptors: Run in order on each request before it is sent.
    ///   - responseInterceptors: Run in order on each response before it is handed back.
    public func intercepted(
        by requestInterceptors: [any RequestInterceptor],
        responses responseInterceptors: [any ResponseInterceptor] = []
    ) -> InterceptingDispatcher {
        InterceptingDispatcher(
            base: self, requestInterceptors: requestInterceptors, responseInterceptors: responseInterceptors)
    }
}
