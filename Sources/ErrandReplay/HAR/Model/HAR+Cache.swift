import Foundation

extension HAR {
    /// What the browser cache held for an entry: the HAR `cache` object.
    ///
    /// Required in every entry but usually empty (`{}`): proxies and Errand know nothing of a
    /// browser cache. The reader accepts a missing or `null` cache as empty.
    public struct Cache: Sendable, Equatable {
        /// The cached response before the request, or `nil` when unknown or absent.
        public var beforeRequest: CacheEntry?
        /// The cached response after the request, or `nil` when unknown or absent.
        public var afterRequest: CacheEntry?
        /// A free comment.
        public var comment: String?

        /// Creates a cache record; with no arguments, the empty `{}` that most files hold.
        ///
        /// - Parameters:
        ///   - beforeRequest: The cache state before the request.
        ///   - afterRequest: The cache state after the request.
        ///   - comment: A free comment.
        public init(
            beforeRequest: CacheEntry? = nil,
            afterRequest: CacheEntry? = nil,
            comment: String? = nil
        ) {
            self.beforeRequest = beforeRequest
            self.afterRequest = afterRequest
            self.comment = comment
        }
    }

    /// One state of a browser cache entry: `beforeRequest` or `afterRequest` in HAR.
    public struct CacheEntry: Sendable, Equatable {
        /// When the cache entry expires, as the exporter wrote it, or `nil`.
        public var expires: String?
        /// When the cache entry was last opened, as the exporter wrote it.
        public var lastAccess: String
        /// The entity tag.
        public var eTag: String
        /// How many times the entry was opened.
        public var hitCount: Int
        /// A free comment.
        public var comment: String?

        /// Creates a cache entry state.
        ///
        /// - Parameters:
        ///   - expires: The expiry, as text, or `nil`.
        ///   - lastAccess: The last access, as text.
        ///   - eTag: The entity tag.
        ///   - hitCount: How many times the entry was opened.
        ///   - comment: A free comment.
        public init(
            expires: String? = nil,
            lastAccess: String = "",
            eTag: String = "",
            hitCount: Int = 0,
            comment: String? = nil
        ) {
            self.expires = expires
            self.lastAccess = lastAccess
            self.eTag = eTag
            self.hitCount = hitCount
            self.comment = comment
        }
    }
}

extension HAR.Cache: HARDecodable {
    private enum CodingKeys: String, CodingKey {
        case beforeRequest, afterRequest, comment
    }

    init(harFrom decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.beforeRequest = try? container.harValueIfPresent(HAR.CacheEntry.self, forKey: .beforeRequest)
        self.afterRequest = try? container.harValueIfPresent(HAR.CacheEntry.self, forKey: .afterRequest)
        self.comment = container.harLenientString(forKey: .comment)
    }
}

extension HAR.Cache: HAREncodable {
    var harJSON: HARJSON {
        var object = HARJSONObject()
        if let beforeRequest {
            object.add("beforeRequest", beforeRequest.harJSON)
        }
        if let afterRequest {
            object.add("afterRequest", afterRequest.harJSON)
        }
        object.add("comment", ifPresent: comment)
        return object.json
    }
}

extension HAR.CacheEntry: HARDecodable {
    private enum CodingKeys: String, CodingKey {
        case expires, lastAccess, eTag, hitCount, comment
    }

    init(harFrom decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.expires = container.harLenientString(forKey: .expires)
        self.lastAccess = container.harLenientString(forKey: .lastAccess) ?? ""
        self.eTag = container.harLenientString(forKey: .eTag) ?? ""
        self.hitCount = container.harLenientInteger(forKey: .hitCount) ?? 0
        self.comment = container.harLenientString(forKey: .comment)
    }
}

extension HAR.CacheEntry: HAREncodable {
    var harJSON: HARJSON {
        var object = HARJSONObject()
        object.add("expires", ifPresent: expires)
        object.add("lastAccess", .string(lastAccess))
        object.add("eTag", .string(eTag))
        object.add("hitCount", .integer(hitCount))
        object.add("comment", ifPresent: comment)
        return object.json
    }
}
