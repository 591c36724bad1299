import Foundation

extension SecretVocabulary {
    /// A body with its secret values replaced, and the values it replaced.
    public struct RedactedBody: Sendable, Hashable {
        /// The body with each secret value replaced by the placeholder.
        public let data: Data
        /// The values replaced, as text (the leaves of a replaced JSON object or array), so a
        /// later scan can look for them elsewhere with ``SecretSpelling/spellings(of:)``.
        public let secrets: [String]

        /// Creates a redacted body.
        ///
        /// - Parameters:
        ///   - data: The redacted bytes.
        ///   - secrets: The values replaced.
        public init(data: Data, secrets: [String]) {
            self.data = data
            self.secrets = secrets
        }
    }

    /// Headers with the values of secret names replaced by the placeholder.
    ///
    /// - Parameter headers: The headers, such as a request's or a response's.
    /// - Returns: The same headers in the same order, secret values replaced.
    public func redacted(_ headers: HTTPHeaders) -> HTTPHeaders {
        var result = HTTPHeaders()
        for header in headers {
            result.add(header.name, matches(header.name) ? placeholder : header.value)
        }
        return result
    }

    /// Query items with the values of secret names replaced by the placeholder: names secret
    /// everywhere and names secret in queries only (``matchesQueryItem(_:)``, `key` by default).
    ///
    /// - Parameter items: The items, in order.
    /// - Returns: The same items, secret values replaced; an item without a value is kept.
    public func redacted(_ items: [URLQueryItem]) -> [URLQueryItem] {
        items.map { item in
            item.value != nil && matchesQueryItem(item.name)
                ? URLQueryItem(name: item.name, value: placeholder) : item
        }
    }

    /// A JSON body with the values of secret keys replaced, at any depth, inside objects and
    /// arrays; every other byte (key order, spacing, numbers) stays as it was.
    ///
    /// A secret key's whole value is replaced, even an object or an array.
    ///
    /// - Parameter body: The JSON text.
    /// - Returns: The redacted body and the values replaced; `nil` when the body is not JSON.
    public func redactedJSON(_ body: Data) -> RedactedBody? {
        JSONSecretRedactor.redact(body, placeholder: placeholder, isSecret: matches)
    }

    /// A `multipart/form-data` body with the content of secret fields replaced; the boundaries,
    /// the parts' headers and every other part stay as they were.
    ///
    /// - Parameters:
    ///   - body: The body bytes.
    ///   - boundary: The boundary from the `Content-Type` header, without the leading `--`.
    /// - Returns: The redacted body and the values replaced; `nil` when no part is found.
    public func redactedMultipart(_ body: Data, boundary: String) -> RedactedBody? {
        MultipartSecretRedactor.redact(body, boundary: boundary, placeholder: placeholder, isSecret: matches)
    }
}
