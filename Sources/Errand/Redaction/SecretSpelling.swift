import Foundation

/// One way a secret value can be written where a server echoes it back.
///
/// A server that echoes a request (an error message quoting a token, httpbin's `/anything`, a
/// debug page) puts a secret where redaction by name does not look, and seldom in the form it
/// was sent: `Bearer abc` comes back as `abc`, a password as the `user:password` inside `Basic`
/// credentials, a query value percent-encoded, a JSON value with `/` written `\/` or
/// `<` written `\u003c`, a body in base64. ``spellings(of:)`` lists them all, so a scan of a
/// file or a log line can find the secret in any of them.
///
/// Short values are found by chance in unrelated text, so the spellings follow a length rule:
/// a value (or a part of one, such as the user of `Basic` credentials) of fewer than
/// ``minimumLength`` characters has no spellings at all; one shorter than ``anywhereLength``
/// counts only as a whole word (``isWholeWordOnly``) and has no base64 spellings; a longer one
/// counts anywhere, even inside a longer word.
public struct SecretSpelling: Sendable, Hashable {
    /// How a spelling encodes the secret.
    public enum Encoding: Sendable, Hashable {
        /// The text itself.
        case plain
        /// Escaped as inside a JSON string: `\"`, `\\`, `\/`, `\u003c` or non-ASCII as `\u00e9`.
        case jsonEscaped
        /// Percent-encoded as in a URL or a form body.
        case percentEncoded
        /// A run of base64 characters (standard or URL-safe) that the secret's bytes always give,
        /// wherever they sit in a longer base64 text.
        case base64
    }

    /// Values shorter than this many characters are not searched for: `6`.
    public static let minimumLength = 6
    /// Values shorter than this many characters are found only as whole words: `8`.
    public static let anywhereLength = 8

    /// The spelling as it would appear in text.
    public let text: String
    /// How it encodes the secret.
    public let encoding: Encoding
    /// Whether it counts only where it is not part of a longer word of letters, digits,
    /// `+`, `/`, `-`, `_`.
    public let isWholeWordOnly: Bool

    /// Creates a spelling.
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - encoding: How it encodes the secret.
    ///   - isWholeWordOnly: Whether it counts only as a whole word.
    public init(_ text: String, encoding: Encoding, isWholeWordOnly: Bool = false) {
        self.text = text
        self.encoding = encoding
        self.isWholeWordOnly = isWholeWordOnly
    }

    /// The placeholder written the way this spelling is written, to stand where it was; `nil`
    /// for base64, where no placeholder can take the secret's place exactly.
    ///
    /// - Parameter placeholder: The plain placeholder, such as `<redacted>`.
    /// - Returns: The placeholder, JSON-escaped or percent-encoded as this spelling is.
    public func replacement(for placeholder: String) -> String? {
        switch encoding {
        case .plain: placeholder
        case .jsonEscaped: Self.jsonEscaped(placeholder, slash: false)
        case .percentEncoded: Self.percentEncoded(placeholder, allowed: Self.unreserved)
        case .base64: nil
        }
    }

    /// Every spelling a server may echo `secret` in, longest first.
    ///
    /// The secret is spelled as it is, and so are its parts: the credentials after a scheme
    /// word (`Bearer abc`, `Token abc`, `Basic dXNlcjpwdw==`), and, for `Basic`, the decoded
    /// `user:password`, the user and the password. Each is spelled plain; JSON-escaped once
    /// and twice (a JSON body quoted as a string inside a JSON answer), with `/` as `\/` or
    /// not, and with `\u` escapes; percent-encoded as strict encoders, Foundation, Python's
    /// `quote` and form bodies do it; and in base64, within the length rule of
    /// ``minimumLength`` and ``anywhereLength``.
    ///
    /// - Parameter secret: A value that was redacted.
    /// - Returns: The spellings, without duplicates; empty for a value too short to search for.
    public static func spellings(of secret: String) -> [SecretSpelling] {
        var seen: Set<String> = []
        var result: [SecretSpelling] = []
        for part in parts(of: secret) {
            let wholeWord = part.count < anywhereLength
            var texts: [(String, Encoding)] = [(part, .plain)]
            texts += jsonSpellings(of: part).map { ($0, .jsonEscaped) }
            texts += percentSpellings(of: part).map { ($0, .percentEncoded) }
            if !wholeWord {
                texts += base64Fragments(of: Array(part.utf8)).map { ($0, .base64) }
            }
            for (text, encoding) in texts where seen.insert(text).inserted {
                result.append(SecretSpelling(text, encoding: encoding, isWholeWordOnly: wholeWord))
            }
        }
        return result.sorted { $0.text.utf8.count > $1.text.utf8.count }
    }

    /// The secret and the parts of it a server may echo alone, each at least ``minimumLength``
    /// characters long.
    ///
    /// - Parameter secret: A value that was redacted.
    /// - Returns: The secret, the credentials after its scheme word, and for `Basic` the
    ///   decoded `user:password`, user and password.
    public static func parts(of secret: String) -> [String] {
        var parts = [secret]
        let trimmed = secret.trimmingCharacters(in: .whitespaces)
        if let space = trimmed.firstIndex(of: " ") {
            let scheme = trimmed[..<space]
            let credentials = trimmed[space...].trimmingCharacters(in: .whitespaces)
            if !credentials.isEmpty,
                scheme.unicodeScalars.allSatisfy({
                    $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-")
                })
            {
                parts.append(credentials)
                if scheme.lowercased() == "basic", let pair = decodedBase64(credentials),
                    let colon = pair.firstIndex(of: ":")
                {
                    parts += [pair, String(pair[..<colon]), String(pair[pair.index(after: colon)...])]
                }
            }
        }
        var seen: Set<String> = []
        return parts.filter { $0.count >= minimumLength && seen.insert($0).inserted }
    }
}
