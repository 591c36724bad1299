import Foundation

/// The names whose values are secret, wherever they appear: headers, query items, JSON keys at
/// any depth, form fields and multipart fields; the names secret in URL queries only; and URL
/// user info.
///
/// One vocabulary serves every place that must keep secrets out of a file or a log line:
/// ``RequestData/description``, error descriptions, log lines, cURL commands and metrics use
/// ``default``, the logging policy and ErrandReplay's recordings take a vocabulary in their
/// configuration. A name matches whatever its case and separators:
/// `access_token`, `accessToken`, `access-token`, `AccessToken`, `ACCESS_TOKEN` and
/// `access.token` are one name, since ``normalized(_:)`` lowercases a name and drops `-`, `_`,
/// `.` and spaces. Names are normalised once, when added, so ``matches(_:)`` costs one pass over
/// the name asked about and a set lookup.
///
/// ```swift
/// var vocabulary = SecretVocabulary.default
/// vocabulary.insert("ssn")
/// vocabulary.matches("accessToken")   // true
/// vocabulary.matches("SSN")           // true
/// vocabulary.matches("page")          // false
/// ```
///
/// Some names are secret only in a URL's query: ``queryNames`` (by default `key`, as in
/// `?key=AIza…`) are hidden as query items everywhere (``matchesQueryItem(_:)``) but not as JSON
/// keys, form fields or headers, where `key` is too common a name to hide.
///
/// URL user info (`https://user:password@host`, or `https://TOKEN@host`) is a credential:
/// URLSession sends it as `Authorization: Basic`. So a vocabulary that hides `Authorization`
/// (``hidesUserInfo``, as ``default`` does) hides the whole user info wherever it shows, stores
/// or records a URL: `https://<redacted>@host/…`.
public struct SecretVocabulary: Sendable, Hashable {
    /// The names secret by default: credentials headers, cookies, and the keys APIs put
    /// tokens, passwords, keys and signatures under.
    public static let defaultNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "x-auth-token",
        "x-access-token", "x-csrf-token", "x-xsrf-token", "api_key", "access_token", "refresh_token",
        "id_token", "client_secret", "password", "passwd", "token", "secret", "signature", "sig",
        // The credential headers of the large API gateways and of session-keyed APIs.
        "x-goog-api-key", "ocp-apim-subscription-key", "x-amz-security-token", "x-functions-key",
        "private-token", "x-session-token", "session-id", "x-session-id",
    ]

    /// The names secret by default in URL queries only: `key`, which APIs put keys under in a
    /// URL (`?key=AIza…`) but which is too common a JSON key or form field to hide everywhere.
    public static let defaultQueryNames: Set<String> = ["key"]

    /// The text that stands where a secret was by default: `<redacted>`.
    public static let defaultPlaceholder = "<redacted>"

    /// The default vocabulary: ``defaultNames``, ``defaultQueryNames`` and ``defaultPlaceholder``.
    public static let `default` = SecretVocabulary()

    /// No name is secret, and URL user info is shown.
    public static let none = SecretVocabulary(names: [], queryNames: [])

    /// The names secret everywhere, as they were given.
    public var names: Set<String> {
        didSet { normalizedNames = Set(names.map(Self.normalized)) }
    }

    /// The names secret in URL queries only (in a path's query, ``RequestData/query`` items, a
    /// base URL's query, a recorded or redirected URL), as they were given; see
    /// ``matchesQueryItem(_:)``.
    public var queryNames: Set<String> {
        didSet { normalizedQueryNames = Set(queryNames.map(Self.normalized)) }
    }

    /// The text that replaces a secret value.
    public var placeholder: String

    /// The names after ``normalized(_:)``, worked out once per name.
    public private(set) var normalizedNames: Set<String>

    /// The query-only names after ``normalized(_:)``, worked out once per name.
    public private(set) var normalizedQueryNames: Set<String>

    /// Creates a vocabulary.
    ///
    /// - Parameters:
    ///   - names: The names secret everywhere, in any spelling; ``defaultNames`` when omitted.
    ///   - queryNames: The names secret in URL queries only; ``defaultQueryNames`` (`key`) when
    ///     omitted. Pass `[]` for none.
    ///   - placeholder: The text that replaces a secret value; `<redacted>` when omitted.
    public init(
        names: Set<String> = SecretVocabulary.defaultNames,
        queryNames: Set<String> = SecretVocabulary.defaultQueryNames,
        placeholder: String = defaultPlaceholder
    ) {
        self.names = names
        self.queryNames = queryNames
        self.placeholder = placeholder
        normalizedNames = Set(names.map(Self.normalized))
        normalizedQueryNames = Set(queryNames.map(Self.normalized))
    }

    /// Creates a vocabulary by adjusting the default one.
    ///
    /// - Parameter configure: Changes to make to ``default``, such as ``insert(_:)``.
    public init(_ configure: (inout SecretVocabulary) -> Void) {
        self.init()
        configure(&self)
    }

    /// Whether no name is secret, neither everywhere nor in queries.
    public var isEmpty: Bool { normalizedNames.isEmpty && normalizedQueryNames.isEmpty }

    /// Adds a secret name, in any spelling.
    ///
    /// - Parameter name: The name; `ssn`, `X-Session-Key`, `clientKey`.
    public mutating func insert(_ name: String) {
        names.insert(name)
    }

    /// Removes every name that is spelled like `name` after ``normalized(_:)``, from
    /// ``names`` and from ``queryNames``.
    ///
    /// - Parameter name: The name, in any spelling: removing `accessToken` removes `access_token`.
    public mutating func remove(_ name: String) {
        let key = Self.normalized(name)
        names = names.filter { Self.normalized($0) != key }
        queryNames = queryNames.filter { Self.normalized($0) != key }
    }

    /// A vocabulary with the names of both.
    ///
    /// - Parameter other: More names, secret everywhere and in queries; its placeholder is ignored.
    /// - Returns: This vocabulary with `other`'s names and query names added.
    public func union(_ other: SecretVocabulary) -> SecretVocabulary {
        var result = self
        result.names.formUnion(other.names)
        result.queryNames.formUnion(other.queryNames)
        return result
    }

    /// Whether `name` is secret everywhere, whatever its case and separators.
    ///
    /// A URL query item is asked about with ``matchesQueryItem(_:)``, which adds ``queryNames``.
    ///
    /// - Parameter name: A header name, JSON key or form field name.
    /// - Returns: `true` when its normalised spelling is one of ``names``.
    public func matches(_ name: String) -> Bool {
        !normalizedNames.isEmpty && normalizedNames.contains(Self.normalized(name))
    }

    /// Whether a URL query item named `name` is secret: it is one of ``names`` or of
    /// ``queryNames``, whatever its case and separators.
    ///
    /// Every place that reads a URL's query asks this: descriptions, log lines, cURL commands,
    /// request identities, recordings and cassettes.
    ///
    /// - Parameter name: A query item name, decoded.
    /// - Returns: `true` when its normalised spelling is secret everywhere or in queries.
    public func matchesQueryItem(_ name: String) -> Bool {
        guard !isEmpty else { return false }
        let key = Self.normalized(name)
        return normalizedNames.contains(key) || normalizedQueryNames.contains(key)
    }

    /// Whether URL user info is hidden: when `Authorization` is secret, since URLSession sends
    /// a URL's `user:password` as `Authorization: Basic` credentials.
    ///
    /// The whole user info is hidden, user name too (many APIs take a token as the user:
    /// `https://TOKEN@host`).
    public var hidesUserInfo: Bool { normalizedNames.contains("authorization") }

    /// The spelling that names are compared in: lowercase, without `-`, `_`, `.` and spaces.
    ///
    /// `Access-Token`, `accessToken` and `ACCESS_TOKEN` all give `accesstoken`.
    ///
    /// - Parameter name: A name in any spelling.
    /// - Returns: The normalised name.
    public static func normalized(_ name: String) -> String {
        var isASCII = true
        // Written in place: a name of up to 15 bytes becomes a small string, with no allocation.
        let folded = String(unsafeUninitializedCapacity: name.utf8.count) { buffer in
            var count = 0
            for byte in name.utf8 {
                switch byte {
                case 0x2D, 0x5F, 0x2E, 0x20: continue
                case 0x41...0x5A: buffer[count] = byte | 0x20
                default:
                    buffer[count] = byte
                    if byte >= 0x80 { isASCII = false }
                }
                count += 1
            }
            return count
        }
        return isASCII ? folded : folded.lowercased()
    }
}
