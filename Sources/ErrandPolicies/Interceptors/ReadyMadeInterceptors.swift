import Errand

/// Adds header fields to every request that does not already set them.
public struct DefaultHeadersInterceptor: RequestInterceptor {
    /// The fields to add.
    public let headers: HTTPHeaders

    /// Creates an interceptor that adds `headers` where the request has no field of that name.
    public init(_ headers: HTTPHeaders) {
        self.headers = headers
    }

    /// Adds the missing fields.
    public func intercept(_ request: RequestData) async throws -> RequestData {
        var request = request
        request.headers = request.headers.merging(defaults: headers)
        return request
    }
}

/// Sets `User-Agent` on every request that does not set its own.
public struct UserAgentInterceptor: RequestInterceptor {
    /// The user agent, for example `Shop/2.1 (iOS 18.2)`.
    public let userAgent: String

    /// Creates an interceptor that sends `userAgent`.
    public init(_ userAgent: String) {
        self.userAgent = userAgent
    }

    /// Sets the field unless the request has one.
    public func intercept(_ request: RequestData) async throws -> RequestData {
        guard !request.headers.contains("User-Agent") else { return request }
        return request.header("User-Agent", userAgent)
    }
}

/// Sends an API key with every request, in a header or a query item.
///
/// The key is a secret: name the header or query item in your log redaction list.
public struct APIKeyInterceptor: RequestInterceptor {
    /// Where the key goes.
    public enum Placement: Hashable, Sendable {
        /// In a header field with this name, such as `X-API-Key`.
        case header(String)
        /// In a query item with this name, such as `api_key`.
        case query(String)
    }

    /// The key.
    public let key: String
    /// Where it goes.
    public let placement: Placement

    /// Creates an interceptor that sends `key` at `placement`.
    public init(_ key: String, in placement: Placement = .header("X-API-Key")) {
        self.key = key
        self.placement = placement
    }

    /// Adds the key, replacing any the request carries under the same name.
    public func intercept(_ request: RequestData) async throws -> RequestData {
        switch placement {
        case .header(let name):
            return request.header(name, key)
        case .query(let name):
            var request = request
            request.query.removeAll { $0.name == name }
            return request.query(name, key)
        }
    }
}
