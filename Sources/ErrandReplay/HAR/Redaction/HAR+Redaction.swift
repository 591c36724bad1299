import Errand
import Foundation

extension HAR {
    /// What the writer hides before anything reaches a file: credentials, cookies, tokens.
    ///
    /// On by default: ``HAR/encoded(redaction:)`` and ``HAR/write(to:redaction:)`` take
    /// ``default``. A name is secret when Errand's shared ``vocabulary`` names it (in any
    /// case and spelling: `access_token` = `accessToken` = `Access-Token`), or when the list of
    /// its place names it, compared the same way. Each value found is replaced by
    /// ``placeholder``:
    ///
    /// - Headers (``headerNames``), request and response. When `Cookie` is secret, the
    ///   request's HAR `cookies` values are replaced too; when `Set-Cookie` is, the response's.
    /// - Query items (``queryItemNames``, and the vocabulary's query-only names such as `key`)
    ///   in the request URL, in the `queryString` list, and in URLs carried by `redirectURL`,
    ///   the URL that finally answered (`_finalURL`), and the `Location`, `Content-Location`,
    ///   `Referer` and `:path` headers. In a URL the placeholder is percent-encoded
    ///   (`%3Credacted%3E`).
    /// - The user info of those URLs (`https://user:password@host`), whole, when
    ///   `Authorization` is hidden (``hidesUserInfo``): URLSession sends it as `Basic`
    ///   credentials. The user, the password and those credentials are searched for like any
    ///   other value replaced.
    /// - Body keys (``bodyKeys``): keys at any depth of a JSON body (request or response, told
    ///   by a MIME type ending in `json`; the whole value is replaced, even an object), fields
    ///   of an `application/x-www-form-urlencoded` request body and its `params`, and fields of a
    ///   `multipart/form-data` body. Only the secret values change: key order, spacing and every
    ///   other byte of the body stay as they were. Bodies are redacted as Errand's log lines
    ///   redact them: a body without a type that opens like JSON (after any byte order mark) is
    ///   read as JSON; one that cannot be read as its type says (JSON cut short) is read as far
    ///   as it goes, and keeps its text with the secret values found replaced when they are all
    ///   found, or is replaced whole by ``placeholder`` when they may not be.
    ///
    /// After redaction, the bytes to be written are searched for every value replaced, in
    /// every spelling a server may echo it in (see `SecretSpelling`): a match in plain,
    /// JSON-escaped or percent-encoded text is replaced by the placeholder in that spelling.
    ///
    /// ```swift
    /// let redaction = HAR.Redaction {
    ///     $0.vocabulary.insert("ssn")          // everywhere
    ///     $0.headerNames.insert("X-Trace-Key")  // in headers only
    /// }
    /// try har.write(to: url, redaction: redaction)
    /// ```
    public struct Redaction: Sendable, Equatable {
        /// The headers that the default vocabulary hides, among others: `Authorization`,
        /// `Proxy-Authorization`, `Cookie`, `Set-Cookie`.
        public static let defaultHeaderNames: Set<String> = [
            "Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie",
        ]

        /// Query item names and body keys that the default vocabulary hides, among others:
        /// `token`, `access_token`, `refresh_token`, `id_token`, `password`, `client_secret`,
        /// `api_key`.
        public static let defaultSecretNames: Set<String> = [
            "token", "access_token", "refresh_token", "id_token", "password", "client_secret", "api_key",
        ]

        /// Everything the default vocabulary hides, everywhere.
        public static let `default` = Redaction()

        /// Nothing hidden: the archive is written as it is.
        public static let none = Redaction(vocabulary: .none)

        /// The names secret in every place: `SecretVocabulary.default` unless changed.
        public var vocabulary: SecretVocabulary
        /// More header names whose values are replaced, in any spelling.
        public var headerNames: Set<String> {
            didSet { normalizedHeaderNames = Self.normalized(headerNames) }
        }
        /// More query item names whose values are replaced, in any spelling.
        public var queryItemNames: Set<String> {
            didSet { normalizedQueryItemNames = Self.normalized(queryItemNames) }
        }
        /// More JSON keys (at any depth) and form and multipart field names whose values are
        /// replaced, in any spelling.
        public var bodyKeys: Set<String> {
            didSet { normalizedBodyKeys = Self.normalized(bodyKeys) }
        }
        /// The text that replaces a secret: the vocabulary's, `<redacted>` by default.
        public var placeholder: String {
            get { vocabulary.placeholder }
            set { vocabulary.placeholder = newValue }
        }

        private var normalizedHeaderNames: Set<String>
        private var normalizedQueryItemNames: Set<String>
        private var normalizedBodyKeys: Set<String>

        /// Creates a redaction; with no arguments, the default one.
        ///
        /// - Parameters:
        ///   - vocabulary: The names secret everywhere; `SecretVocabulary.default` by default.
        ///   - headerNames: More header names to hide.
        ///   - queryItemNames: More query item names to hide.
        ///   - bodyKeys: More JSON keys and form fields to hide.
        ///   - placeholder: The replacement text; the vocabulary's when `nil`.
        public init(
            vocabulary: SecretVocabulary = .default,
            headerNames: Set<String> = [],
            queryItemNames: Set<String> = [],
            bodyKeys: Set<String> = [],
            placeholder: String? = nil
        ) {
            self.vocabulary = vocabulary
            self.headerNames = headerNames
            self.queryItemNames = queryItemNames
            self.bodyKeys = bodyKeys
            normalizedHeaderNames = Self.normalized(headerNames)
            normalizedQueryItemNames = Self.normalized(queryItemNames)
            normalizedBodyKeys = Self.normalized(bodyKeys)
            if let placeholder { self.vocabulary.placeholder = placeholder }
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
            !(vocabulary.isEmpty && headerNames.isEmpty && queryItemNames.isEmpty && bodyKeys.isEmpty)
        }

        /// Whether a header's value is hidden.
        ///
        /// - Parameter name: The header name, in any spelling.
        /// - Returns: `true` when the vocabulary or ``headerNames`` names it.
        public func hidesHeader(_ name: String) -> Bool {
            hides(name, extra: normalizedHeaderNames)
        }

        /// Whether a query item's value is hidden.
        ///
        /// - Parameter name: The query item name, in any spelling.
        /// - Returns: `true` when the vocabulary (its names or its query-only names, see
        ///   `SecretVocabulary.matchesQueryItem(_:)`) or ``queryItemNames`` names it.
        public func hidesQueryItem(_ name: String) -> Bool {
            guard !(normalizedQueryItemNames.isEmpty && vocabulary.isEmpty) else { return false }
            let key = SecretVocabulary.normalized(name)
            return vocabulary.normalizedNames.contains(key) || vocabulary.normalizedQueryNames.contains(key)
                || normalizedQueryItemNames.contains(key)
        }

        /// Whether the user info of a URL (`https://user:password@host`) is hidden, whole: when
        /// `Authorization` is, since URLSession sends the user info as `Basic` credentials.
        public var hidesUserInfo: Bool {
            hidesHeader("Authorization")
        }

        /// Whether a JSON key's or form field's value is hidden.
        ///
        /// - Parameter name: The key or field name, in any spelling.
        /// - Returns: `true` when the vocabulary or ``bodyKeys`` names it.
        public func hidesBodyKey(_ name: String) -> Bool {
            hides(name, extra: normalizedBodyKeys)
        }

        private func hides(_ name: String, extra: Set<String>) -> Bool {
            guard !(extra.isEmpty && vocabulary.isEmpty) else { return false }
            let key = SecretVocabulary.normalized(name)
            return vocabulary.normalizedNames.contains(key) || extra.contains(key)
        }

        private static func normalized(_ names: Set<String>) -> Set<String> {
            Set(names.map(SecretVocabulary.normalized))
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
