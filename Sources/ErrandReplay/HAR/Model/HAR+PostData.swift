import Errand
import Foundation

extension HAR {
    /// A request body: the HAR `postData` object.
    ///
    /// The body is held as decoded bytes in ``body``. HAR 1.2 stores a request body as `text`
    /// only; Errand writes a binary body as base64 with `"encoding": "base64"` (an extension
    /// also used by other tools), and reads `encoding` wherever it appears.
    public struct PostData: Sendable, Equatable {
        /// The MIME type, usually the `Content-Type` header value.
        public var mimeType: String
        /// The body as decoded bytes; `nil` when the exporter saved none. A form whose exporter
        /// saved only ``params`` gets its body rebuilt from them.
        ///
        /// A body written as `text` with no `encoding` is ambiguous: browsers write the body
        /// decoded as UTF-8, while mitmproxy writes bodies that are not JSON and declare no
        /// charset decoded as Latin-1 (each character one byte), so a binary upload arrives as
        /// text such as `"\u0000\u0001…\u00ff"`. The reader decides, in this order:
        ///
        /// 1. A character above U+00FF cannot come from Latin-1: UTF-8.
        /// 2. Only ASCII: UTF-8 and Latin-1 agree.
        /// 3. A `charset` in the MIME type decides: `utf-8` gives UTF-8; `iso-8859-1`,
        ///    `latin1` or `windows-1252` give Latin-1.
        /// 4. A JSON MIME type (`…json`) gives UTF-8, as JSON is UTF-8 and mitmproxy decodes it so.
        /// 5. A control character other than tab, line feed and carriage return (U+0000–U+001F,
        ///    U+007F–U+009F) means binary data: Latin-1.
        /// 6. Text whose Latin-1 bytes are valid UTF-8 with multi-byte sequences (`"cafÃ©"`) is
        ///    UTF-8 that was decoded as Latin-1: Latin-1, which gives back the UTF-8 bytes.
        /// 7. Otherwise, text such as `"café"`: UTF-8.
        ///
        /// A true Latin-1 text body without a charset, or a short binary body that happens to
        /// hold no control byte, can still be read as UTF-8; files Errand writes are never
        /// ambiguous, because it writes base64 for any body that would not read back exactly.
        public var body: Data?
        /// The form fields, for `application/x-www-form-urlencoded` bodies, as exported.
        public var params: [Param]
        /// A free comment.
        public var comment: String?

        /// Creates a request body record from bytes.
        ///
        /// - Parameters:
        ///   - mimeType: The body's MIME type.
        ///   - body: The body bytes.
        ///   - params: The form fields, if the exporter lists them.
        ///   - comment: A free comment.
        public init(mimeType: String, body: Data?, params: [Param] = [], comment: String? = nil) {
            self.mimeType = mimeType
            self.body = body
            self.params = params
            self.comment = comment
        }

        /// Creates a request body record from text, stored as its UTF-8 bytes.
        ///
        /// - Parameters:
        ///   - mimeType: The body's MIME type.
        ///   - text: The body text.
        ///   - params: The form fields, if any.
        ///   - comment: A free comment.
        public init(mimeType: String, text: String, params: [Param] = [], comment: String? = nil) {
            self.init(mimeType: mimeType, body: Data(text.utf8), params: params, comment: comment)
        }

        /// The body as a string when it is valid UTF-8, else `nil`.
        public var text: String? {
            body.flatMap(HARBodyText.utf8String)
        }
    }

    /// One posted parameter: a form field or a file part, as exporters list them.
    public struct Param: Sendable, Equatable {
        /// The field's name.
        public var name: String
        /// The field's value, or `nil` for a file part without inline content.
        public var value: String?
        /// The uploaded file's name, for a file part.
        public var fileName: String?
        /// The uploaded file's content type, for a file part.
        public var contentType: String?
        /// A free comment.
        public var comment: String?

        /// Creates a posted parameter.
        ///
        /// - Parameters:
        ///   - name: The field's name.
        ///   - value: The field's value.
        ///   - fileName: The file's name, for a file part.
        ///   - contentType: The file's content type, for a file part.
        ///   - comment: A free comment.
        public init(
            name: String,
            value: String? = nil,
            fileName: String? = nil,
            contentType: String? = nil,
            comment: String? = nil
        ) {
            self.name = name
            self.value = value
            self.fileName = fileName
            self.contentType = contentType
            self.comment = comment
        }
    }
}

extension HAR.PostData: HARDecodable {
    private enum CodingKeys: String, CodingKey {
        case mimeType, params, text, encoding, comment
    }

    init(harFrom decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.mimeType = container.harLenientString(forKey: .mimeType) ?? ""
        self.body = try container.harBody(textKey: .text, encodingKey: .encoding, mimeType: mimeType)
        self.params = container.harLenientArray(HAR.Param.self, forKey: .params)
        self.comment = container.harLenientString(forKey: .comment)
        if body == nil { body = Self.formBody(of: params, mimeType: mimeType) }
    }

    /// The form body that `params` stand for, when an exporter (Firefox, Charles) saved a
    /// form's fields without its `text`: so the recording still matches the form it answers.
    private static func formBody(of params: [HAR.Param], mimeType: String) -> Data? {
        let essence = mimeType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) }
        guard !params.isEmpty, essence.map(HARCaseInsensitive.key) == "application/x-www-form-urlencoded",
            params.allSatisfy({ $0.fileName == nil })
        else { return nil }
        let pairs = params.map {
            PercentEncoding.escape($0.name) + "=" + PercentEncoding.escape($0.value ?? "")
        }
        return Data(pairs.joined(separator: "&").utf8)
    }
}

extension HAR.PostData: HAREncodable {
    var harJSON: HARJSON {
        var object = HARJSONObject()
        object.add("mimeType", .string(mimeType))
        object.add("params", .array(params.map(\.harJSON)))
        if let body {
            let written = HARBodyText.encode(body, mimeType: mimeType)
            object.add("text", .string(written.text))
            object.add("encoding", ifPresent: written.encoding)
        }
        object.add("comment", ifPresent: comment)
        return object.json
    }
}

extension HAR.Param: HARDecodable {
    private enum CodingKeys: String, CodingKey {
        case name, value, fileName, contentType, comment
    }

    init(harFrom decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.name = try container.decode(String.self, forKey: .name)
        self.value = try container.decodeIfPresent(String.self, forKey: .value)
        self.fileName = container.harLenientString(forKey: .fileName)
        self.contentType = container.harLenientString(forKey: .contentType)
        self.comment = container.harLenientString(forKey: .comment)
    }
}

extension HAR.Param: HAREncodable {
    var harJSON: HARJSON {
        var object = HARJSONObject()
        object.add("name", .string(name))
        object.add("value", ifPresent: value)
        object.add("fileName", ifPresent: fileName)
        object.add("contentType", ifPresent: contentType)
        object.add("comment", ifPresent: comment)
        return object.json
    }
}
