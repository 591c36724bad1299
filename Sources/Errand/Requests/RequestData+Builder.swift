import Foundation

// The fluent builder: each call returns a changed copy.
extension RequestData {
    /// A `GET` request to `path`.
    public static func get(_ path: String) -> RequestData { RequestData(path: path, method: .get) }
    /// A `POST` request to `path`.
    public static func post(_ path: String) -> RequestData { RequestData(path: path, method: .post) }
    /// A `PUT` request to `path`.
    public static func put(_ path: String) -> RequestData { RequestData(path: path, method: .put) }
    /// A `PATCH` request to `path`.
    public static func patch(_ path: String) -> RequestData { RequestData(path: path, method: .patch) }
    /// A `DELETE` request to `path`.
    public static func delete(_ path: String) -> RequestData { RequestData(path: path, method: .delete) }
    /// A `HEAD` request to `path`.
    public static func head(_ path: String) -> RequestData { RequestData(path: path, method: .head) }

    /// Adds a query item after the existing ones; a `nil` value sends the name alone.
    public func query(_ name: String, _ value: String?) -> RequestData {
        var copy = self
        copy.query.append(URLQueryItem(name: name, value: value))
        return copy
    }

    /// Adds query items after the existing ones, in order.
    public func query(_ items: [URLQueryItem]) -> RequestData {
        var copy = self
        copy.query.append(contentsOf: items)
        return copy
    }

    /// Sets a header field, replacing any field of the same name (ignoring case).
    public func header(_ name: String, _ value: String) -> RequestData {
        var copy = self
        copy.headers.set(name, value)
        return copy
    }

    /// Sets the body.
    public func body(_ body: Body) -> RequestData {
        var copy = self
        copy.body = body
        return copy
    }

    /// Sets the deadline for the whole request, in seconds.
    ///
    /// `.infinity` means no deadline (so does anything over about 290 years). NaN, zero
    /// and negative values are refused with `invalidRequest` when the request is sent.
    public func timeout(_ seconds: TimeInterval) -> RequestData {
        var copy = self
        copy.timeout = seconds
        return copy
    }

    /// Sets whether the auth policy attaches a token.
    public func authentication(_ authentication: Authentication) -> RequestData {
        var copy = self
        copy.authentication = authentication
        return copy
    }

    /// Lets the retry policy retry this request although its method is not idempotent.
    public func retryableWhenNotIdempotent(_ allowed: Bool = true) -> RequestData {
        var copy = self
        copy.allowsRetryWhenNotIdempotent = allowed
        return copy
    }

    /// Lets this request skip a request queue.
    public func bypassingQueue(_ bypasses: Bool = true) -> RequestData {
        var copy = self
        copy.bypassesQueue = bypasses
        return copy
    }
}
