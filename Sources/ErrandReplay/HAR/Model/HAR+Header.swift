import Foundation

extension HAR {
    /// One HTTP header as recorded, in the order and spelling the exporter wrote it.
    ///
    /// Names are kept as written (`Content-Type`, `content-type`): HTTP/2 exporters write them
    /// in lower case. Look them up with ``Request/value(forHeader:)`` and
    /// ``Response/value(forHeader:)``, which ignore case.
    ///
    /// HTTP/2 and HTTP/3 pseudo-headers (`:authority`, `:method`, `:path`, `:scheme`,
    /// `:status`) that browsers export for HTTP/2 traffic are kept, so a file written back out
    /// still shows them, and are flagged by ``isPseudoHeader`` so matching can leave them out
    /// (``Request/matchableHeaders``).
    public struct Header: Sendable, Equatable {
        /// The header name, as written.
        public var name: String
        /// The header value.
        public var value: String
        /// A free comment.
        public var comment: String?

        /// Creates a header.
        ///
        /// - Parameters:
        ///   - name: The header name.
        ///   - value: The header value.
        ///   - comment: A free comment.
        public init(name: String, value: String, comment: String? = nil) {
            self.name = name
            self.value = value
            self.comment = comment
        }

        /// Whether this is an HTTP/2 pseudo-header such as `:authority` or `:path`.
        ///
        /// Pseudo-headers describe the request line, not header fields; URLSession never sends
        /// them as headers, so a matcher should ignore them.
        public var isPseudoHeader: Bool {
            name.hasPrefix(":")
        }

        /// Whether the header's name equals `name`, ignoring ASCII case.
        ///
        /// - Parameter name: The name to compare with, in any case.
        /// - Returns: `true` when the names are equal apart from case.
        public func hasName(_ name: String) -> Bool {
            HARCaseInsensitive.equal(self.name, name)
        }
    }
}

extension HAR.Header: HARDecodable {
    private enum CodingKeys: String, CodingKey {
        case name, value, comment
    }

    init(harFrom decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.name = try container.decode(String.self, forKey: .name)
        self.value = try container.decodeIfPresent(String.self, forKey: .value) ?? ""
        self.comment = container.harLenientString(forKey: .comment)
    }
}

extension HAR.Header {
    /// The header fields of one element of a `headers` array: one, or one per value when the
    /// value is an array of strings, as an older recording library writes repeated headers.
    static func fields(harFrom decoder: any Decoder) throws -> [HAR.Header] {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .name)
        let comment = container.harLenientString(forKey: .comment)
        let values: [String]
        if let list = try? container.decode([String].self, forKey: .value) {
            values = list
        } else {
            values = [try container.decodeIfPresent(String.self, forKey: .value) ?? ""]
        }
        return values.map { HAR.Header(name: name, value: $0, comment: comment) }
    }
}

/// One element of a `headers` array, read as its header fields.
struct HARHeaderFields: Decodable {
    /// The fields, usually one.
    let fields: [HAR.Header]

    init(from decoder: any Decoder) throws {
        fields = try HAR.Header.fields(harFrom: decoder)
    }
}

extension KeyedDecodingContainer {
    /// A `headers` array; empty when missing or `null`. Its type and each name matter, so a
    /// wrong one is an error; a value written as an array of strings gives one field per string.
    func harHeaders(forKey key: Key) throws -> [HAR.Header] {
        try decodeIfPresent([HARHeaderFields].self, forKey: key)?.flatMap(\.fields) ?? []
    }
}

extension HAR.Header: HAREncodable {
    var harJSON: HARJSON {
        var object = HARJSONObject()
        object.add("name", .string(name))
        object.add("value", .string(value))
        object.add("comment", ifPresent: comment)
        return object.json
    }
}

extension [HAR.Header] {
    /// The value of the first header named `name`, ignoring case.
    func harFirstValue(named name: String) -> String? {
        first { $0.hasName(name) }?.value
    }

    /// The values of every header named `name`, ignoring case, in recorded order.
    func harValues(named name: String) -> [String] {
        filter { $0.hasName(name) }.map(\.value)
    }
}

/// ASCII case-insensitive comparison for header names and redaction lists.
enum HARCaseInsensitive {
    /// Whether two strings are equal apart from ASCII letter case, without allocating.
    static func equal(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        var right = rhs.utf8.makeIterator()
        for byte in lhs.utf8 {
            guard let other = right.next(), lower(byte) == lower(other) else { return false }
        }
        return true
    }

    /// The ASCII-lowercased form of a string, used as a set key.
    static func key(_ text: String) -> String {
        String(decoding: text.utf8.map(lower), as: UTF8.self)
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
    }
}
