import Errand
import Foundation

/// A response as an HTTP cache stores it: what the server sent, when it was asked and answered,
/// and the request header values its `Vary` field nominates.
///
/// A ``CacheStore`` keeps these under a cache key; the ``CachingDispatcher`` decides what is
/// stored and when a stored response may be used. `Codable`, so a store can write it anywhere.
public struct CachedResponse: Codable, Hashable, Sendable {
    /// The cache key: the request's URL, the same for every method.
    public let key: String
    /// The method of the request that was answered: `GET` or `HEAD`.
    public let method: HTTPMethod
    /// The status code, as the server sent it.
    public let statusCode: Int
    /// The response header fields, updated by each revalidation.
    public internal(set) var headers: HTTPHeaders
    /// The body bytes.
    public let body: Data
    /// The URL that answered, with the values of secret query items redacted and without user
    /// info.
    public let url: URL?
    /// When the request that got this response was sent (`request_time` of RFC 9111 §4.2.3).
    public internal(set) var requestTime: Date
    /// When this response arrived (`response_time` of RFC 9111 §4.2.3).
    public internal(set) var responseTime: Date
    /// The values of the request header fields that the response's `Vary` names, by lower-cased
    /// name; a name whose field the request did not have is absent. The value of a secret field
    /// (`Authorization`, `Cookie`, …) is kept as its digest: `hmac-sha256:` and hexadecimal,
    /// keyed with the store's own key, for a ``DiskCacheStore``; `sha256:` and hexadecimal for a
    /// store in memory.
    public let varyingRequestHeaders: [String: String]
    /// Whose request it answered: the `RequestIdentity.key` of the request that fetched it
    /// (empty for an anonymous one), digested again with the store's key for a
    /// ``DiskCacheStore``. It answers only requests of the same identity.
    public let identity: String
    /// What freshness needs from ``headers``, read when they are set.
    private(set) var freshness: CacheFreshness.Facts
    /// The lower-cased names the stored `Vary` lists, read when the headers are set.
    private(set) var varyNames: [String]

    init(
        key: String, request: RequestData, identity: RequestIdentity, response: NetworkResponse,
        requestTime: Date, responseTime: Date, secrets: CacheSecrets = .unkeyed
    ) {
        self.key = key
        self.identity = secrets.identity(identity)
        self.method = request.method
        self.statusCode = response.statusCode
        self.headers = Self.storable(response.headers)
        self.body = response.body
        self.url = CacheSecrets.url(response.url)
        self.requestTime = requestTime
        self.responseTime = responseTime
        let varyNames = Self.varyNames(in: headers)
        var varying: [String: String] = [:]
        if !varyNames.isEmpty {
            let requestHeaders = request.effectiveHeaders
            for name in varyNames where name != "*" {
                if let value = secrets.varyingValue(
                    Self.normalizedValue(of: name, in: requestHeaders), of: name)
                {
                    varying[name] = value
                }
            }
        }
        self.varyingRequestHeaders = varying
        self.freshness = CacheFreshness.Facts(
            statusCode: statusCode, headers: headers, responseTime: responseTime)
        self.varyNames = varyNames
    }

    /// The size the entry counts for against a store's byte limit: body, headers and key.
    public var byteCount: Int {
        body.count + key.utf8.count + headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
    }

    /// Whether this stored response may answer `request`: the method allows it, and every request
    /// field that `Vary` names has the value it had (RFC 9111 §4.1). `Vary: *` never matches.
    /// `secrets` must be those the entry was made with.
    func matches(_ request: RequestData, secrets: CacheSecrets = .unkeyed) -> Bool {
        guard method == request.method || (method == .get && request.method == .head) else { return false }
        guard !varyNames.isEmpty else { return true }
        let requestHeaders = request.effectiveHeaders
        for name in varyNames {
            if name == "*" { return false }
            let value = secrets.varyingValue(
                Self.normalizedValue(of: name, in: requestHeaders), of: name)
            if value != varyingRequestHeaders[name] {
                return false
            }
        }
        return true
    }

    /// Whether `other` was stored for the same method and the same varying request values, so
    /// that it is replaced when this one is stored.
    func replaces(_ other: CachedResponse) -> Bool {
        other.method == method && other.varyingRequestHeaders == varyingRequestHeaders
            && other.identity == identity
    }

    /// The response to deliver from this entry, with its `Age` (RFC 9111 §4 asks for one).
    func response(for request: RequestData, age: TimeInterval, status: NetworkResponse.CacheStatus)
        -> NetworkResponse
    {
        var headers = headers
        headers.set("Age", String(Int.saturating(age, within: 0...CacheControl.maximumSeconds)))
        return NetworkResponse(
            statusCode: statusCode, headers: headers, body: request.method == .head ? Data() : body, url: url,
            request: request, cacheStatus: status)
    }

    /// This entry with the header fields of a `304 Not Modified` merged in (RFC 9111 §3.2):
    /// each field of the 304 replaces the stored ones of its name, except `Content-Length`.
    func updated(with notModified: NetworkResponse, requestTime: Date, responseTime: Date) -> CachedResponse {
        var copy = self
        let fresh = Self.storable(notModified.headers)
        var seen: Set<String> = []
        for field in fresh where !field.name.caseInsensitiveEquals("Content-Length") {
            let name = field.name.lowercased()
            if seen.insert(name).inserted {
                copy.headers.set(field.name, field.value)
            } else {
                copy.headers.add(field.name, field.value)
            }
        }
        copy.requestTime = requestTime
        copy.responseTime = responseTime
        copy.freshness = CacheFreshness.Facts(
            statusCode: statusCode, headers: copy.headers, responseTime: responseTime)
        copy.varyNames = Self.varyNames(in: copy.headers)
        return copy
    }

    /// The lower-cased field names a `Vary` header lists.
    static func varyNames(in headers: HTTPHeaders) -> [String] {
        headers.values(for: "Vary").flatMap { $0.split(separator: ",") }
            .map { String($0).trimmingWhitespace().lowercased() }.filter { !$0.isEmpty }
    }

    /// The values of the fields named `name`, joined and trimmed; `nil` when there is none.
    private static func normalizedValue(of name: String, in headers: HTTPHeaders) -> String? {
        let values = headers.values(for: name).map { $0.trimmingWhitespace() }
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// `headers` without the hop-by-hop fields a cache does not store (RFC 9111 §3.1), nor those
    /// that hand out a credential (`Set-Cookie`, `X-Auth-Token`, …; see `CacheSecrets`).
    static func storable(_ headers: HTTPHeaders) -> HTTPHeaders {
        let nominated = headers.values(for: "Connection").flatMap { $0.split(separator: ",") }
            .map { String($0).trimmingWhitespace() }
        let kept = headers.fields.filter { field in
            !hopByHopNames.contains { field.name.caseInsensitiveEquals($0) }
                && !CacheSecrets.isUnstored(field.name)
                && !nominated.contains { field.name.caseInsensitiveEquals($0) }
        }
        return kept.count == headers.fields.count ? headers : HTTPHeaders(kept)
    }

    /// The fields that concern one connection only, never stored (RFC 9110 §7.6.1).
    private static let hopByHopNames = [
        "Connection", "Proxy-Connection", "Keep-Alive", "TE", "Transfer-Encoding", "Upgrade",
        "Proxy-Authenticate", "Proxy-Authentication-Info", "Proxy-Authorization",
    ]
}

extension CachedResponse {
    private enum CodingKeys: String, CodingKey {
        case key, method, statusCode, headers, body, url, requestTime, responseTime, varyingRequestHeaders
        case identity
    }

    /// What an entry written before entries named their identity is read with: it answers no one,
    /// since nothing says whose it was.
    static let unknownIdentity = "unknown"

    /// Reads an entry written by ``encode(to:)``.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when the data is not an entry.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        key = try container.decode(String.self, forKey: .key)
        method = HTTPMethod(rawValue: try container.decode(String.self, forKey: .method))
        statusCode = try container.decode(Int.self, forKey: .statusCode)
        let pairs = try container.decode([[String]].self, forKey: .headers)
        // An entry written before secret fields were dropped hands none of them out.
        headers = Self.storable(
            HTTPHeaders(
                try pairs.map { pair in
                    guard pair.count == 2 else {
                        throw DecodingError.dataCorruptedError(
                            forKey: .headers, in: container,
                            debugDescription: "a header is not a name and a value")
                    }
                    return HTTPHeaders.Field(name: pair[0], value: pair[1])
                }))
        body = try container.decode(Data.self, forKey: .body)
        url = try container.decodeIfPresent(URL.self, forKey: .url)
        requestTime = try container.decode(Date.self, forKey: .requestTime)
        responseTime = try container.decode(Date.self, forKey: .responseTime)
        varyingRequestHeaders = try container.decode([String: String].self, forKey: .varyingRequestHeaders)
        identity = try container.decodeIfPresent(String.self, forKey: .identity) ?? Self.unknownIdentity
        freshness = CacheFreshness.Facts(statusCode: statusCode, headers: headers, responseTime: responseTime)
        varyNames = Self.varyNames(in: headers)
    }

    /// Writes the entry, its headers as `[name, value]` pairs in order.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(method.rawValue, forKey: .method)
        try container.encode(statusCode, forKey: .statusCode)
        try container.encode(headers.map { [$0.name, $0.value] }, forKey: .headers)
        try container.encode(body, forKey: .body)
        try container.encodeIfPresent(url, forKey: .url)
        try container.encode(requestTime, forKey: .requestTime)
        try container.encode(responseTime, forKey: .responseTime)
        try container.encode(varyingRequestHeaders, forKey: .varyingRequestHeaders)
        try container.encode(identity, forKey: .identity)
    }
}
