import Foundation

/// An HTTP response as a dispatcher delivers it: status, headers, body and the final URL.
public struct NetworkResponse: Hashable, Sendable, CustomStringConvertible {
    /// The HTTP status code.
    public var statusCode: Int
    /// The response headers, looked up ignoring case.
    public var headers: HTTPHeaders
    /// The body bytes (already decompressed when the server used gzip or deflate).
    public var body: Data
    /// The URL that answered, after any redirects.
    public var url: URL?
    /// The request this answers, as it was dispatched.
    public var request: RequestData?
    /// Whether the response came from an HTTP cache (see `caching(_:)`): `.network` unless a
    /// caching dispatcher answered from its store, with or without asking the server first.
    public var cacheStatus: CacheStatus
    /// How many times the request was sent to get this response: 1, unless a retry policy
    /// (`retrying(_:)`) beneath sent it again, in which case the attempt that answered.
    public var attempts: Int

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - statusCode: The HTTP status code.
    ///   - headers: The response headers.
    ///   - body: The body bytes.
    ///   - url: The URL that answered.
    ///   - request: The request this answers.
    ///   - cacheStatus: Whether it came from a cache; `.network` by default.
    ///   - attempts: How many times the request was sent to get it; 1 by default.
    public init(
        statusCode: Int, headers: HTTPHeaders = [:], body: Data = Data(), url: URL? = nil,
        request: RequestData? = nil, cacheStatus: CacheStatus = .network, attempts: Int = 1
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.url = url
        self.request = request
        self.cacheStatus = cacheStatus
        self.attempts = attempts
    }

    /// Whether the body came from a cache's store rather than from the server this time: `true`
    /// for ``CacheStatus/hit`` and ``CacheStatus/revalidated``.
    public var isFromCache: Bool { cacheStatus != .network }

    /// The status with its reason phrase, the body size and the URL, for logs; secret query
    /// values in the URL are shown as `<redacted>`, as in ``RequestData/description``.
    public var description: String {
        let summary = "\(statusCode) \(HTTPStatus.reason(for: statusCode)), \(body.count) bytes"
        guard let url else { return summary }
        let shown = RequestData.descriptionVocabulary.redactingQuery(ofURL: url.absoluteString)
        return "\(summary) from \(shown)"
    }

    /// Up to `limit` bytes of the body as text, marked when cut, for error messages.
    ///
    /// Error messages end up in logs, so the body is redacted first: the values of secret JSON
    /// keys, form and multipart fields (``SecretVocabulary/default``), and every spelling of the
    /// request's own secret values, which a server may echo. A body typed as JSON, form or
    /// multipart that cannot be read as such is shown only when no secret name occurs in it.
    func bodySnippet(limit: Int = 512) -> String {
        guard !body.isEmpty else { return "(empty body)" }
        let vocabulary = SecretVocabulary.default
        let shown: Data
        if let redacted = vocabulary.redactedBody(body, contentType: headers["Content-Type"]) {
            shown = redacted
        } else if vocabulary.mayName(in: body) {
            return "(\(body.count) bytes, not shown: they could not be read to redact a secret they name)"
        } else {
            shown = body
        }
        let prefix = shown.prefix(limit)
        var text = String(decoding: prefix, as: UTF8.self)
        if let request {
            text = EchoNeedles(RequestData.descriptionVocabulary.secretValues(of: request)).hidden(
                in: text, placeholder: vocabulary.placeholder)
        }
        return shown.count > limit ? text + "… (\(shown.count) bytes in all)" : text
    }
}

/// Reason phrases for the status codes people meet.
package enum HTTPStatus {
    package static func reason(for code: Int) -> String {
        switch code {
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: className(of: code)
        }
    }

    /// The class name of a status code that has no common reason phrase.
    private static func className(of code: Int) -> String {
        switch code {
        case 100..<200: "Informational"
        case 200..<300: "Success"
        case 300..<400: "Redirection"
        case 400..<500: "Client Error"
        case 500..<600: "Server Error"
        default: "Unknown Status"
        }
    }
}
