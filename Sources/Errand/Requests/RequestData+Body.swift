import Foundation

extension RequestData {
    /// A request body: its bytes, already encoded, and its content type.
    ///
    /// Bodies are encoded when they are made, so a `RequestData` compares and hashes by the bytes
    /// it will send. An encoding failure is kept and reported as `invalidRequest` when the request
    /// is executed, never as a crash.
    public struct Body: Hashable, Sendable, CustomStringConvertible {
        /// How the body was made.
        public enum Kind: String, Hashable, Sendable {
            /// JSON from an `Encodable` value.
            case json
            /// `application/x-www-form-urlencoded` fields.
            case form
            /// `multipart/form-data` parts.
            case multipart
            /// Raw bytes with a caller-given content type.
            case raw
        }

        /// How the body was made.
        public let kind: Kind
        /// The `Content-Type` the body is sent with (unless the request sets its own).
        public let contentType: String
        /// The encoded bytes; `nil` when encoding failed.
        public let data: Data?
        /// Why encoding failed, when it did.
        public let encodingFailure: String?
        /// The fields of a form body, in order; empty for other kinds.
        public let formFields: [URLQueryItem]

        init(
            kind: Kind, contentType: String, data: Data?, failure: String? = nil,
            formFields: [URLQueryItem] = []
        ) {
            self.kind = kind
            self.contentType = contentType
            self.data = data
            self.encodingFailure = failure
            self.formFields = formFields
        }

        /// JSON from any `Encodable` value.
        ///
        /// The default encoder sorts keys, so the same value always gives the same bytes (and
        /// requests compare, hash, cache and replay by content). Give your encoder
        /// `.sortedKeys` too if you rely on that.
        ///
        /// - Parameters:
        ///   - value: The value to encode.
        ///   - encoder: The encoder to use, for key or date strategies.
        public static func json<Value: Encodable & Sendable>(
            _ value: Value, encoder: JSONEncoder = Body.sortedKeysEncoder()
        ) -> Body {
            do {
                return Body(kind: .json, contentType: "application/json", data: try encoder.encode(value))
            } catch {
                return Body(kind: .json, contentType: "application/json", data: nil, failure: "\(error)")
            }
        }

        /// A JSON encoder that writes keys in sorted order.
        public static func sortedKeysEncoder() -> JSONEncoder {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return encoder
        }

        /// `application/x-www-form-urlencoded` fields, in order.
        ///
        /// Names and values are percent-encoded: a space as `%20`, and `+`, `&`, `=` and non-ASCII
        /// characters escaped, so they arrive as sent.
        public static func form(_ fields: [URLQueryItem]) -> Body {
            let encoded = PercentEncoding.queryString(fields)
            return Body(
                kind: .form, contentType: "application/x-www-form-urlencoded; charset=utf-8",
                data: Data(encoded.utf8), formFields: fields)
        }

        /// `application/x-www-form-urlencoded` fields from name–value pairs, in order.
        public static func form(_ fields: KeyValuePairs<String, String>) -> Body {
            form(fields.map { URLQueryItem(name: $0.key, value: $0.value) })
        }

        /// `multipart/form-data` with text fields and files.
        ///
        /// - Parameters:
        ///   - parts: The parts, in order.
        ///   - boundary: A boundary to use; by default a random one that none of the parts contains.
        public static func multipart(_ parts: [MultipartPart], boundary: String? = nil) -> Body {
            let boundary = boundary ?? MultipartPart.uniqueBoundary(avoiding: parts)
            // A CR LF in a part's content type would write part headers of its own.
            if let problem = MultipartPart.problem(in: parts) {
                return Body(
                    kind: .multipart, contentType: "multipart/form-data; boundary=\(boundary)", data: nil,
                    failure: problem)
            }
            return Body(
                kind: .multipart, contentType: "multipart/form-data; boundary=\(boundary)",
                data: MultipartPart.encode(parts, boundary: boundary))
        }

        /// Raw bytes with a content type.
        public static func raw(_ data: Data, contentType: String) -> Body {
            Body(kind: .raw, contentType: contentType, data: data)
        }

        /// UTF-8 text, `text/plain` unless said otherwise.
        public static func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> Body {
            Body(kind: .raw, contentType: contentType, data: Data(text.utf8))
        }

        /// The kind, content type and size, for logs.
        public var description: String {
            if let encodingFailure {
                return "\(kind) body (not encodable: \(EscapedText.line(encodingFailure)))"
            }
            return "\(kind) body, \(EscapedText.line(contentType)), \(data?.count ?? 0) bytes"
        }
    }
}
