import Foundation

extension HAR {
    /// A response body and what is known of it: the HAR `content` object.
    ///
    /// The body is held as decoded bytes. When reading, `text` with `"encoding": "base64"` is
    /// base64-decoded, and `text` without an encoding is turned back into the bytes that were
    /// sent (UTF-8, or Latin-1 for the binary bodies some proxies write as text; the rule is
    /// documented on ``PostData/body``). When writing, a body that is UTF-8 text is written as
    /// `text`, and any other body as base64 with `"encoding": "base64"`.
    public struct Content: Sendable, Equatable {
        /// The length of the body in bytes, as the exporter reported it.
        ///
        /// HAR defines it as the decoded length; mitmproxy writes the length on the wire (the
        /// compressed length for a `gzip` body), so do not rely on it for the body's length.
        public var size: Int
        /// Bytes saved by compression, when the exporter reported it.
        public var compression: Int?
        /// The MIME type, usually the `Content-Type` header value, charset included.
        public var mimeType: String
        /// The body as decoded bytes; `nil` when the exporter did not save the body.
        public var body: Data?
        /// A free comment.
        public var comment: String?

        /// Creates a content record.
        ///
        /// - Parameters:
        ///   - body: The decoded body bytes, or `nil` when not saved.
        ///   - mimeType: The MIME type, charset included.
        ///   - size: The body length; `nil` takes the length of `body`.
        ///   - compression: Bytes saved by compression, if known.
        ///   - comment: A free comment.
        public init(
            body: Data? = nil,
            mimeType: String = "",
            size: Int? = nil,
            compression: Int? = nil,
            comment: String? = nil
        ) {
            self.body = body
            self.mimeType = mimeType
            self.size = size ?? body?.count ?? 0
            self.compression = compression
            self.comment = comment
        }

        /// The body as a string when it is valid UTF-8, else `nil`.
        public var text: String? {
            body.flatMap(HARBodyText.utf8String)
        }
    }
}

extension HAR.Content: HARDecodable {
    private enum CodingKeys: String, CodingKey {
        case size, compression, mimeType, text, encoding, comment
    }

    init(harFrom decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.mimeType = container.harLenientString(forKey: .mimeType) ?? ""
        self.body = try container.harBody(textKey: .text, encodingKey: .encoding, mimeType: mimeType)
        self.size = container.harLenientInteger(forKey: .size) ?? body?.count ?? 0
        self.compression = container.harLenientInteger(forKey: .compression)
        self.comment = container.harLenientString(forKey: .comment)
    }
}

extension HAR.Content: HAREncodable {
    var harJSON: HARJSON {
        var object = HARJSONObject()
        object.add("size", .integer(size))
        if let compression {
            object.add("compression", .integer(compression))
        }
        object.add("mimeType", .string(mimeType))
        if let body {
            let written = HARBodyText.encode(body, mimeType: mimeType)
            object.add("text", .string(written.text))
            object.add("encoding", ifPresent: written.encoding)
        }
        object.add("comment", ifPresent: comment)
        return object.json
    }
}
