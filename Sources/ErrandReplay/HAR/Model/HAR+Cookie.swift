import Foundation

extension HAR {
    /// One cookie, as HAR lists it beside the `Cookie` and `Set-Cookie` headers.
    ///
    /// Cookie values are secrets: with the default redaction the writer replaces them, as it
    /// replaces the `Cookie` and `Set-Cookie` headers (see ``HAR/Redaction``).
    public struct Cookie: Sendable, Equatable {
        /// The cookie's name.
        public var name: String
        /// The cookie's value.
        public var value: String
        /// The path the cookie applies to, for a cookie that was set.
        public var path: String?
        /// The domain the cookie applies to, for a cookie that was set.
        public var domain: String?
        /// When the cookie expires, as the exporter wrote it.
        public var expires: String?
        /// Whether the cookie is hidden from scripts.
        public var httpOnly: Bool?
        /// Whether the cookie is sent over TLS only.
        public var secure: Bool?
        /// A free comment.
        public var comment: String?

        /// Creates a cookie record.
        ///
        /// - Parameters:
        ///   - name: The cookie's name.
        ///   - value: The cookie's value.
        ///   - path: The path it applies to.
        ///   - domain: The domain it applies to.
        ///   - expires: Its expiry, as text.
        ///   - httpOnly: Whether scripts cannot read it.
        ///   - secure: Whether it travels over TLS only.
        ///   - comment: A free comment.
        public init(
            name: String,
            value: String,
            path: String? = nil,
            domain: String? = nil,
            expires: String? = nil,
            httpOnly: Bool? = nil,
            secure: Bool? = nil,
            comment: String? = nil
        ) {
            self.name = name
            self.value = value
            self.path = path
            self.domain = domain
            self.expires = expires
            self.httpOnly = httpOnly
            self.secure = secure
            self.comment = comment
        }
    }
}

extension HAR.Cookie: HARDecodable {
    private enum CodingKeys: String, CodingKey {
        case name, value, path, domain, expires, httpOnly, secure, comment
    }

    init(harFrom decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.name = try container.decode(String.self, forKey: .name)
        self.value = try container.decodeIfPresent(String.self, forKey: .value) ?? ""
        self.path = container.harLenientString(forKey: .path)
        self.domain = container.harLenientString(forKey: .domain)
        self.expires = container.harLenientString(forKey: .expires)
        self.httpOnly = container.harLenientBool(forKey: .httpOnly)
        self.secure = container.harLenientBool(forKey: .secure)
        self.comment = container.harLenientString(forKey: .comment)
    }
}

extension HAR.Cookie: HAREncodable {
    var harJSON: HARJSON {
        var object = HARJSONObject()
        object.add("name", .string(name))
        object.add("value", .string(value))
        object.add("path", ifPresent: path)
        object.add("domain", ifPresent: domain)
        object.add("expires", ifPresent: expires)
        if let httpOnly {
            object.add("httpOnly", .bool(httpOnly))
        }
        if let secure {
            object.add("secure", .bool(secure))
        }
        object.add("comment", ifPresent: comment)
        return object.json
    }
}
