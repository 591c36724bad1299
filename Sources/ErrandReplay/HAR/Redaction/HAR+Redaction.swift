import Foundation

extension HAR {
    /// What the writer hides before anything reaches a file: credentials, cookies, tokens.
    ///
    /// On by default: ``HAR/encoded(redaction:)`` and ``HAR/write(to:redaction:)`` take
    /// ``default``. Each listed name is compared ignoring ASCII case, and each value found is
    /// replaced by ``placeholder``:
    ///
    /// - ``headerNames``: request and response headers. When `Cookie` is listed, the request's
    ///   HAR `cookies` values are replaced too; when `Set-Cookie` is listed, the response's.
    /// - ``queryItemNames``: query items in the request URL, in the `queryString` list, and in
    ///   URLs carried by `redirectURL` and the `Location`, `Content-Location`, `Referer` and
    ///   `:path` headers. In a URL the placeholder is percent-encoded (`%3Credacted%3E`).
    /// - ``bodyKeys``: keys at any depth of a JSON body (request or response, told by a MIME
    ///   type ending in `json`; the whole value is replaced, even an object), and fields of an
    ///   `application/x-www-form-urlencoded` request body and its `params`. Only the secret values change: key order, spacing and
    ///   every other byte of the body stay as they were. Multipart bodies are not looked into,
    ///   and a body labelled JSON that is not well-formed JSON is kept as it is.
    ///
    /// ```swift
    /// let redaction = HAR.Redaction {
    ///     $0.headerNames.insert("X-API-Key")
    ///     $0.bodyKeys.insert("ssn")
    /// }
    /// try har.write(to: url, redaction: redaction)
    /// ```
    public struct Redaction: Sendable, Equatable {
        /// The headers redacted by default: `Authorization`, `Proxy-Authorization`, `Cookie`,
        /// `Set-Cookie`.
        public static let defaultHeaderNames: Set<String> = [
            "Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie",
        ]

        /// The query item names and body keys redacted by default: `token`, `access_token`,
        /// `refresh_token`, `id_token`, `password`, `client_secret`, `api_key`.
        public static let defaultSecretNames: Set<String> = [
            "token", "access_token", "refresh_token", "id_token", "password", "client_secret", "api_key",
        ]

        /// Everything the default hides: ``defaultHeaderNames`` and ``defaultSecretNames``.
        public static let `default` = Redaction()

        /// Nothing hidden: the archive is written as it is.
        public static let none = Redaction(headerNames: [], queryItemNames: [], bodyKeys: [])

        /// Header names whose values are replaced, in any case.
        public var headerNames: Set<String>
        /// Query item names whose values are replaced, in any case.
        public var queryItemNames: Set<String>
        /// JSON keys (at any depth) and form field names whose values are replaced, in any case.
        public var bodyKeys: Set<String>
        /// The text that replaces a secret; `<redacted>` by default.
        public var placeholder: String

        /// Creates a redaction; with no arguments, the default one.
        ///
        /// - Parameters:
        ///   - headerNames: Header names to hide.
        ///   - queryItemNames: Query item names to hide.
        ///   - bodyKeys: JSON keys and form fields to hide.
        ///   - placeholder: The replacement text.
        public init(
            headerNames: Set<String> = Redaction.defaultHeaderNames,
            queryItemNames: Set<String> = Redaction.defaultSecretNames,
            bodyKeys: Set<String> = Redaction.defaultSecretNames,
            placeholder: String = "<redacted>"
        ) {
            self.headerNames = headerNames
            self.queryItemNames = queryItemNames
            self.bodyKeys = bodyKeys
            self.placeholder = placeholder
        }

        /// Creates a redaction by adjusting the default one.
        ///
        /// - Parameter configure: Changes to make to ``default``, such as adding a header name.
        public init(_ configure: (inout Redaction) -> Void) {
            var redaction = Redaction()
            configure(&redaction)
            self = redaction
        }

        /// Whether this redaction hides anything at all.
        public var isEnabled: Bool {
            !(headerNames.isEmpty && queryItemNames.isEmpty && bodyKeys.isEmpty)
        }
    }

    /// A copy of this archive with the secrets named by `redaction` replaced.
    ///
    /// The writer calls this itself; use it to show or log an archive without its secrets.
    ///
    /// - Parameter redaction: What to hide; ``Redaction/default`` when omitted.
    /// - Returns: The redacted archive.
    public func redacted(_ redaction: Redaction = .default) -> HAR {
        var redactor = HARRedactor(redaction)
        return redactor.redact(self)
    }
}
