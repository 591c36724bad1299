import Foundation

extension HAR {
    /// A recorded response, or a recorded failure: the HAR `response` object.
    ///
    /// A request that got no response (refused, reset, timed out) is recorded with status `0`
    /// and the reason in ``error``, which files carry as `_error`, the way Chrome writes it.
    ///
    /// The body is held decoded, so the reader and the writer correct the headers that
    /// describe an encoding no longer there: a `Content-Encoding` such as `gzip` is dropped and
    /// `Content-Length` set to the stored length, as mitmproxy leaves them stale. An empty body
    /// (a `HEAD`, a `304`) and a body still gzip-compressed keep their headers.
    public struct Response: Sendable, Equatable {
        /// The status code, or `0` when the request failed before a response.
        public var status: Int
        /// The reason phrase, such as `OK`; may be empty (HTTP/2 has none).
        public var statusText: String
        /// The protocol version, such as `HTTP/1.1` or `h2`.
        public var httpVersion: String
        /// The cookies the response set.
        public var cookies: [Cookie]
        /// The headers, in recorded order and spelling, pseudo-headers included.
        public var headers: [Header]
        /// The body and its MIME type.
        public var content: Content
        /// The target of a redirect, from the `Location` header; empty otherwise.
        public var redirectURL: String
        /// The size of the response head in bytes, or `-1` when unknown.
        public var headersSize: Int
        /// The size of the body as received in bytes, or `-1` when unknown.
        public var bodySize: Int
        /// A free comment.
        public var comment: String?
        /// Why the request failed, for a failure (`_error` in the file); `nil` otherwise.
        public var error: String?
        /// The URL that answered, when it is not the request's (the last one of the redirects
        /// the transport followed): `_finalURL` in the file, a custom field, which HAR allows and
        /// other tools ignore; `nil` otherwise.
        public var finalURL: String?

        /// Creates a response record.
        ///
        /// - Parameters:
        ///   - status: The status code, or `0` for a failure.
        ///   - statusText: The reason phrase.
        ///   - httpVersion: The protocol version.
        ///   - cookies: The cookies set.
        ///   - headers: The headers, in order.
        ///   - content: The body and its MIME type.
        ///   - redirectURL: The redirect target, or empty.
        ///   - headersSize: The head size in bytes, or `-1`.
        ///   - bodySize: The body size in bytes; `nil` takes the length of the body.
        ///   - comment: A free comment.
        ///   - error: Why the request failed, for a failure.
        ///   - finalURL: The URL that answered, when it is not the request's.
        public init(
            status: Int,
            statusText: String = "",
            httpVersion: String = "HTTP/1.1",
            cookies: [Cookie] = [],
            headers: [Header] = [],
            content: Content = Content(),
            redirectURL: String = "",
            headersSize: Int = -1,
            bodySize: Int? = nil,
            comment: String? = nil,
            error: String? = nil,
            finalURL: String? = nil
        ) {
            self.status = status
            self.statusText = statusText
            self.httpVersion = httpVersion
            self.cookies = cookies
            self.headers = headers
            self.content = content
            self.redirectURL = redirectURL
            self.headersSize = headersSize
            self.bodySize = bodySize ?? content.body?.count ?? 0
            self.comment = comment
            self.error = error
            self.finalURL = finalURL
        }

        /// The response body as decoded bytes, or `nil` when the exporter saved no body.
        ///
        /// Shorthand for ``Content/body``.
        public var body: Data? {
            content.body
        }

        /// The headers a matcher or a replay should use: all but HTTP/2 pseudo-headers.
        public var matchableHeaders: [Header] {
            headers.filter { !$0.isPseudoHeader }
        }

        /// The value of the first header named `name`, ignoring case.
        ///
        /// - Parameter name: The header name, in any case.
        /// - Returns: The first matching value, or `nil`.
        public func value(forHeader name: String) -> String? {
            headers.harFirstValue(named: name)
        }

        /// The values of every header named `name`, ignoring case, in recorded order.
        ///
        /// - Parameter name: The header name, in any case; `Set-Cookie` often repeats.
        /// - Returns: The matching values; empty when there are none.
        public func values(forHeader name: String) -> [String] {
            headers.harValues(named: name)
        }
    }
}

extension HAR.Response: HARDecodable {
    private enum CodingKeys: String, CodingKey {
        case status, statusText, httpVersion, cookies, headers, content, redirectURL
        case headersSize, bodySize, comment
        case error = "_error"
        case finalURL = "_finalURL"
    }

    init(harFrom decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let status = try container.harInteger(forKey: .status) else {
            throw DecodingError.keyNotFound(
                CodingKeys.status,
                DecodingError.Context(codingPath: container.codingPath, debugDescription: "No status.")
            )
        }
        guard status <= 999 else {
            throw HARError(
                code: .invalidValue, codingPath: container.codingPath + [CodingKeys.status],
                reason: "\(status) is not an HTTP status; expected 0 (no response) or a code up to 999")
        }
        self.status = status
        self.statusText = container.harLenientString(forKey: .statusText) ?? ""
        self.httpVersion = container.harLenientString(forKey: .httpVersion) ?? ""
        self.cookies = container.harLenientArray(HAR.Cookie.self, forKey: .cookies)
        self.headers = try container.harHeaders(forKey: .headers)
        self.content = try container.harValueIfPresent(HAR.Content.self, forKey: .content) ?? HAR.Content()
        self.redirectURL = container.harLenientString(forKey: .redirectURL) ?? ""
        self.headersSize = container.harLenientInteger(forKey: .headersSize) ?? -1
        self.bodySize = container.harLenientInteger(forKey: .bodySize) ?? -1
        self.comment = container.harLenientString(forKey: .comment)
        self.error = container.harLenientString(forKey: .error)
        self.finalURL = container.harLenientString(forKey: .finalURL)
        self = HARContentHeaders.corrected(self)
    }
}

extension HAR.Response: HAREncodable {
    var harJSON: HARJSON {
        let headers = HARContentHeaders.corrected(self).headers
        var object = HARJSONObject()
        object.add("status", .integer(status))
        object.add("statusText", .string(statusText))
        object.add("httpVersion", .string(httpVersion))
        object.add("cookies", .array(cookies.map(\.harJSON)))
        object.add("headers", .array(headers.map(\.harJSON)))
        object.add("content", content.harJSON)
        object.add("redirectURL", .string(redirectURL))
        object.add("headersSize", .integer(headersSize))
        object.add("bodySize", .integer(bodySize))
        object.add("comment", ifPresent: comment)
        object.add("_error", ifPresent: error)
        object.add("_finalURL", ifPresent: finalURL)
        return object.json
    }
}

/// Corrects the `Content-Encoding` and `Content-Length` headers of a response whose body is
/// stored decoded.
///
/// HAR holds response bodies decoded, and Errand records them decoded (URLSession has already
/// undone gzip and deflate). mitmproxy keeps the headers of the wire beside the decoded body: a
/// `Content-Encoding: gzip` and the compressed `Content-Length`. Replayed as they are, they
/// would describe bytes that are not there. The reader and the writer both apply this rule:
///
/// - Only a response with a stored, non-empty body and a `Content-Encoding` other than
///   `identity` is touched. An empty body belongs to a `HEAD` or a `304`, whose headers
///   describe a representation that was not sent.
/// - A `gzip` body that still starts with the gzip magic bytes is still compressed: it is left
///   as it is, headers included.
/// - Otherwise `Content-Encoding` is removed and every `Content-Length` is set to the length of
///   the stored body.
enum HARContentHeaders {
    /// The response with headers that describe its stored body.
    static func corrected(_ response: consuming HAR.Response) -> HAR.Response {
        guard let body = response.content.body, !body.isEmpty else { return response }
        let encodings = response.headers.harValues(named: "Content-Encoding")
            .flatMap { $0.split(separator: ",") }
            .map { HARCaseInsensitive.key($0.trimmingCharacters(in: .whitespaces)) }
            .filter { !$0.isEmpty && $0 != "identity" }
        guard !encodings.isEmpty else { return response }
        if encodings.contains("gzip") || encodings.contains("x-gzip"), body.starts(with: [0x1F, 0x8B]) {
            return response
        }
        var result = response
        result.headers = result.headers.compactMap { header in
            if header.hasName("Content-Encoding") { return nil }
            guard header.hasName("Content-Length") else { return header }
            var corrected = header
            corrected.value = String(body.count)
            return corrected
        }
        return result
    }
}
