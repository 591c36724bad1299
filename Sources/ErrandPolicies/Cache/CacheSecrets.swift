import Errand
import Foundation

/// What the cache keeps in place of secrets, so that no store (a ``DiskCacheStore`` above all)
/// ever holds a credential in clear.
///
/// A cache must tell requests apart by their credentials without keeping them: a response to
/// `?access_token=A` must not answer `?access_token=B`, and with `Vary: Authorization` one user's
/// answer must not go to another. So the values of secret names (those of
/// `SecretVocabulary.default`) in the cache key's query, the user info of the key's URL, the
/// stored `Vary` values of secret request headers and the request identity are replaced by a
/// digest, which matches exactly as the value did. For a ``DiskCacheStore`` the digest is keyed
/// (HMAC-SHA256 under the store's own random key, `hmac-sha256:` and hexadecimal), so that
/// entries read without that key (copied, backed up, attached to a report) cannot be used to
/// test guesses of a password, and one store's digests say nothing about another's; for a store
/// in memory it is SHA-256 (`sha256:`). The stored URL keeps no secret at all: secret query values are
/// redacted and user info is dropped.
///
/// No response header field whose name is secret is stored: `Set-Cookie`, `X-Auth-Token`, every
/// name of the vocabulary. A cookie or token is handed out once, when the response first
/// arrives; replaying it from a file would both persist the session and hand it out again.
/// Private caches do the same: Chromium's disk cache keeps response headers without cookies.
///
/// Response bodies are stored as they came: they are the data the cache is for. Token answers
/// are `POST` responses (never stored) and carry `Cache-Control: no-store` (RFC 6749 §5.1).
struct CacheSecrets: Sendable {
    /// The key of the digests; `nil` for plain SHA-256.
    let key: Data?

    /// Digests with SHA-256, for stores in memory.
    static let unkeyed = CacheSecrets(key: nil)

    /// The names whose values are digested, and response fields not stored.
    static let vocabulary = SecretVocabulary.default

    /// Whether a response header field named `name` is never stored: it hands out a credential.
    static func isUnstored(_ name: String) -> Bool {
        vocabulary.matches(name) || name.caseInsensitiveEquals("Set-Cookie2")
    }

    /// `value` as a store in memory keeps it: `sha256:` and the hexadecimal digest.
    static func digest(_ value: String) -> String {
        unkeyed.digest(value)
    }

    /// `value` as the store keeps it: `hmac-sha256:` and the hexadecimal keyed digest, or
    /// `sha256:` and the plain one when there is no key.
    func digest(_ value: String) -> String {
        guard let key else { return "sha256:" + SHA256.hex(SHA256.hash(Data(value.utf8))) }
        return "hmac-sha256:" + SHA256.hex(SHA256.hmac(key: key, message: Data(value.utf8)))
    }

    /// A cache key (an escaped URL) with its user info and the values of secret query items
    /// digested, wherever they came from: the request's query items, a query written in its
    /// path, the base URL's query, or a `Location` that names the resource.
    ///
    /// - Parameters:
    ///   - url: The URL, escaped.
    ///   - hasKeyedUserInfo: Whether its user info is already a digest: that of another key, which
    ///     a relative `Location` resolved against that key inherits.
    func key(_ url: String, hasKeyedUserInfo: Bool = false) -> String {
        let url = hasKeyedUserInfo ? url : digestingUserInfo(of: url)
        let withoutFragment = url.prefix { $0 != "#" }
        guard let mark = withoutFragment.firstIndex(of: "?") else { return url }
        var changed = false
        let pieces = withoutFragment[withoutFragment.index(after: mark)...]
            .split(separator: "&", omittingEmptySubsequences: false)
            .map { piece -> Substring in
                guard let equals = piece.firstIndex(of: "=") else { return piece }
                let name = piece[..<equals]
                guard Self.vocabulary.matchesQueryItem(String(name).removingPercentEncoding ?? String(name))
                else {
                    return piece
                }
                let value = String(piece[piece.index(after: equals)...])
                changed = true
                return name + "=" + Substring(digest(value.removingPercentEncoding ?? value))
            }
        guard changed else { return url }
        return withoutFragment[..<mark] + "?" + pieces.joined(separator: "&")
    }

    /// `url` with the `user:password@` of its authority replaced by their digest.
    private func digestingUserInfo(of url: String) -> String {
        guard let userInfo = SecretVocabulary.userInfo(inURL: url) else { return url }
        return String(url[..<userInfo.lowerBound]) + digest("user " + url[userInfo])
            + String(url[userInfo.upperBound...])
    }

    /// The value of request header `name` as a stored `Vary` value: digested when it is secret.
    func varyingValue(_ value: String?, of name: String) -> String? {
        guard let value, Self.vocabulary.matches(name) else { return value }
        return digest(value)
    }

    /// The identity as an entry keeps it: empty when anonymous, else digested again with the
    /// store's key (the identity's own digest is plain SHA-256).
    func identity(_ identity: RequestIdentity) -> String {
        let text = identity.key
        guard key != nil, !text.isEmpty else { return text }
        return digest("identity " + text)
    }

    /// `url` as an entry stores it: secret query values redacted, user info dropped.
    static func url(_ url: URL?) -> URL? {
        guard let url else { return nil }
        let string = url.absoluteString
        var redacted = vocabulary.redactingQuery(ofURL: string, escapingPlaceholder: true)
        if url.user != nil || url.password != nil,
            var components = URLComponents(string: redacted)
        {
            components.user = nil
            components.password = nil
            redacted = components.string ?? ""
        }
        return redacted == string ? url : URL(string: redacted)
    }
}
