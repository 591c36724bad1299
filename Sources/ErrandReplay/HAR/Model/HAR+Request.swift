import Foundation

extension HAR {
    /// A recorded request: the HAR `request` object, with accessors a matcher needs.
    ///
    /// The stored properties are the HAR fields. The accessors answer the questions a replay
    /// matcher asks: ``queryItems`` parsed from the URL, ``body`` as decoded bytes,
    /// ``value(forHeader:)`` ignoring case, and ``matchableHeaders`` without HTTP/2
    /// pseudo-headers. Each accessor computes its answer on every call; an index built once
    /// per cassette should keep what it uses.
    public struct Request: Sendable, Equatable {
        /// The method, as recorded (`GET`, `POST`, …).
        public var method: String
        /// The absolute URL, as recorded, including the query.
        public var url: String
        /// The protocol version, such as `HTTP/1.1` or `h2`.
        public var httpVersion: String
        /// The cookies the request carried.
        public var cookies: [Cookie]
        /// The headers, in recorded order and spelling, pseudo-headers included.
        public var headers: [Header]
        /// The `queryString` list as the exporter wrote it; see ``queryItems`` for matching.
        public var queryString: [QueryItem]
        /// The request body, if one was sent and recorded.
        public var postData: PostData?
        /// The size of the request head in bytes, or `-1` when unknown (HTTP/2 exports).
        public var headersSize: Int
        /// The size of the request body in bytes, or `-1` when unknown.
        public var bodySize: Int
        /// A free comment.
        public var comment: String?

        /// Creates a request record.
        ///
        /// - Parameters:
        ///   - method: The HTTP method.
        ///   - url: The absolute URL, query included.
        ///   - httpVersion: The protocol version.
        ///   - cookies: The cookies sent.
        ///   - headers: The headers sent, in order.
        ///   - queryString: The query items; `nil` parses them from `url`.
        ///   - postData: The body, if any.
        ///   - headersSize: The head size in bytes, or `-1`.
        ///   - bodySize: The body size in bytes; `nil` takes the length of the body.
        ///   - comment: A free comment.
        public init(
            method: String,
            url: String,
            httpVersion: String = "HTTP/1.1",
            cookies: [Cookie] = [],
            headers: [Header] = [],
            queryString: [QueryItem]? = nil,
            postData: PostData? = nil,
            headersSize: Int = -1,
            bodySize: Int? = nil,
            comment: String? = nil
        ) {
            self.method = method
            self.url = url
            self.httpVersion = httpVersion
            self.cookies = cookies
            self.headers = headers
            self.queryString =
                queryString
                ?? HARURLQuery.parts(of: url).query.map { HARURLQuery.items(in: $0, plusIsSpace: false) }
                ?? []
            self.postData = postData
            self.headersSize = headersSize
            self.bodySize = bodySize ?? postData?.body?.count ?? 0
            self.comment = comment
        }

        /// The query items of the URL, percent-decoded, in order; for matching.
        ///
        /// Parsed from ``url`` itself rather than taken from ``queryString``, because
        /// exporters differ in how they decode that list (whether `+` means a space, for one)
        /// while the URL is what was sent and what a live request will be compared with. `+` stays a literal `+`, as in `URLComponents`. An item written
        /// without `=` has an empty value. When the URL has no `?` at all, the recorded
        /// ``queryString`` is returned.
        public var queryItems: [QueryItem] {
            guard let query = HARURLQuery.parts(of: url).query else { return queryString }
            return HARURLQuery.items(in: query, plusIsSpace: false)
        }

        /// The URL without its query and fragment: scheme, host, port and path, as recorded.
        public var urlWithoutQuery: String {
            String(HARURLQuery.parts(of: url).base)
        }

        /// The recorded URL as a `URL`, or `nil` when Foundation cannot parse it.
        public var parsedURL: URL? {
            URL(string: url)
        }

        /// The request body as decoded bytes, or `nil` when no body was recorded.
        ///
        /// Base64 and the Latin-1 text mitmproxy writes for binary bodies are already undone;
        /// see ``PostData/body``.
        public var body: Data? {
            postData?.body
        }

        /// The content type of the body: the `Content-Type` header, else the body's MIME type.
        public var contentType: String? {
            if let header = value(forHeader: "Content-Type") {
                return header
            }
            guard let mimeType = postData?.mimeType, !mimeType.isEmpty else { return nil }
            return mimeType
        }

        /// The headers a matcher should compare: all but HTTP/2 pseudo-headers.
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
        /// - Parameter name: The header name, in any case.
        /// - Returns: The matching values; empty when there are none.
        public func values(forHeader name: String) -> [String] {
            headers.harValues(named: name)
        }
    }
}

extension HAR.Request: HARDecodable {
    private enum CodingKeys: String, CodingKey {
        case method, url, httpVersion, cookies, headers, queryString, postData
        case headersSize, bodySize, comment
    }

    init(harFrom decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.method = try container.decode(String.self, forKey: .method)
        self.url = try container.decode(String.self, forKey: .url)
        self.httpVersion = container.harLenientString(forKey: .httpVersion) ?? ""
        self.cookies = container.harLenientArray(HAR.Cookie.self, forKey: .cookies)
        self.headers = try container.harHeaders(forKey: .headers)
        self.queryString = container.harLenientArray(HAR.QueryItem.self, forKey: .queryString)
        self.postData = try container.harValueIfPresent(HAR.PostData.self, forKey: .postData)
        self.headersSize = container.harLenientInteger(forKey: .headersSize) ?? -1
        self.bodySize = container.harLenientInteger(forKey: .bodySize) ?? -1
        self.comment = container.harLenientString(forKey: .comment)
    }
}

extension HAR.Request: HAREncodable {
    var harJSON: HARJSON {
        var object = HARJSONObject()
        object.add("method", .string(method))
        object.add("url", .string(url))
        object.add("httpVersion", .string(httpVersion))
        object.add("cookies", .array(cookies.map(\.harJSON)))
        object.add("headers", .array(headers.map(\.harJSON)))
        object.add("queryString", .array(queryString.map(\.harJSON)))
        if let postData {
            object.add("postData", postData.harJSON)
        }
        object.add("headersSize", .integer(headersSize))
        object.add("bodySize", .integer(bodySize))
        object.add("comment", ifPresent: comment)
        return object.json
    }
}
