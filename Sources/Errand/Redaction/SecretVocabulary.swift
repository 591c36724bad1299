import Foundation

/// The names whose values are secret, wherever they appear: headers, query items, JSON keys at
/// any depth, form fields and multipart fields.
///
/// One vocabulary serves every place that must keep secrets out of a file or a log line:
/// ``RequestData/description`` uses ``default``, and ErrandReplay's cassette redaction takes a
/// vocabulary in its configuration. A name matches whatever its case and separators:
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

    /// The text that stands where a secret was by default: `<redacted>`.
    public static let defaultPlaceholder = "<redacted>"

    /// The default vocabulary: ``defaultNames`` and ``defaultPlaceholder``.
    public static let `default` = SecretVocabulary()

    /// No name is secret.
    public static let none = SecretVocabulary(names: [])

    /// The names, as they were given.
    public var names: Set<String> {
        didSet { normalizedNames = Set(names.map(Self.normalized)) }
    }

    /// The text that replaces a secret value.
    public var placeholder: String

    /// The names after ``normalized(_:)``, worked out once per name.
    public private(set) var normalizedNames: Set<String>

    /// Creates a vocabulary.
    ///
    /// - Parameters:
    ///   - names: The secret names, in any spelling; ``defaultNames`` when omitted.
    ///   - placeholder: The text that replaces a secret value; `<redacted>` when omitted.
    public init(names: Set<String> = SecretVocabulary.defaultNames, placeholder: String = defaultPlaceholder)
    {
        self.names = names
        self.placeholder = placeholder
        normalizedNames = Set(names.map(Self.normalized))
    }

    /// Creates a vocabulary by adjusting the default one.
    ///
    /// - Parameter configure: Changes to make to ``default``, such as ``insert(_:)``.
    public init(_ configure: (inout SecretVocabulary) -> Void) {
        self.init()
        configure(&self)
    }

    /// Whether no name is secret.
    public var isEmpty: Bool { normalizedNames.isEmpty }

    /// Adds a secret name, in any spelling.
    ///
    /// - Parameter name: The name; `ssn`, `X-Session-Key`, `clientKey`.
    public mutating func insert(_ name: String) {
        names.insert(name)
    }

    /// Removes every name that is spelled like `name` after ``normalized(_:)``.
    ///
    /// - Parameter name: The name, in any spelling: removing `accessToken` removes `access_token`.
    public mutating func remove(_ name: String) {
        let key = Self.normalized(name)
        names = names.filter { Self.normalized($0) != key }
    }

    /// A vocabulary with the names of both.
    ///
    /// - Parameter other: More names; its placeholder is ignored.
    /// - Returns: This vocabulary with `other`'s names added.
    public func union(_ other: SecretVocabulary) -> SecretVocabulary {
        var result = self
        result.names.formUnion(other.names)
        return result
    }

    /// Whether `name` is secret, whatever its case and separators.
    ///
    /// - Parameter name: A header name, query item name, JSON key or form field name.
    /// - Returns: `true` when its normalised spelling is one of the vocabulary's.
    public func matches(_ name: String) -> Bool {
        !normalizedNames.isEmpty && normalizedNames.contains(Self.normalized(name))
    }

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
