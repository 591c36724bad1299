import Foundation

/// What the cache keeps in place of secrets, so that no store (a ``DiskCacheStore`` above all)
/// ever holds a credential in clear.
///
/// A cache must tell requests apart by their credentials without keeping them: a response to
/// `?access_token=A` must not answer `?access_token=B`, and with `Vary: Authorization` one user's
/// answer must not go to another. So the values of secret names (those of
/// ``SecretVocabulary/default``) in the cache key's query, in the stored URL and in the stored
/// `Vary` request values are replaced by their SHA-256 digest, which matches exactly as the value
/// did. `Set-Cookie` is not stored at all: a cookie is set once, when the response first
/// arrives, and replaying it from a file would both persist the session and set it again.
///
/// Response bodies are stored as they came: they are the data the cache is for. Token answers
/// are `POST` responses (never stored) and carry `Cache-Control: no-store` (RFC 6749 §5.1).
enum CacheSecrets {
    /// The names whose values are digested.
    static let vocabulary = SecretVocabulary.default

    /// The response header fields never stored.
    static let unstoredHeaders: Set<String> = ["set-cookie", "set-cookie2"]

    /// `value` as the cache keeps it: `sha256:` and the hexadecimal digest.
    static func digest(_ value: String) -> String {
        "sha256:" + SHA256.hash(Data(value.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// A cache key (an escaped URL) with the values of secret query items digested, wherever
    /// they came from: the request's query items, a query written in its path, the base URL's
    /// query, or a `Location` that names the resource.
    static func key(_ url: String) -> String {
        let withoutFragment = url.prefix { $0 != "#" }
        guard let mark = withoutFragment.firstIndex(of: "?") else { return url }
        var changed = false
        let pieces = withoutFragment[withoutFragment.index(after: mark)...]
            .split(separator: "&", omittingEmptySubsequences: false)
            .map { piece -> Substring in
                guard let equals = piece.firstIndex(of: "=") else { return piece }
                let name = piece[..<equals]
                guard vocabulary.matches(String(name).removingPercentEncoding ?? String(name)) else {
                    return piece
                }
                let value = String(piece[piece.index(after: equals)...])
                changed = true
                return name + "=" + digest(value.removingPercentEncoding ?? value)
            }
        guard changed else { return url }
        return withoutFragment[..<mark] + "?" + pieces.joined(separator: "&")
    }

    /// The value of request header `name` as a stored `Vary` value: digested when it is secret.
    static func varyingValue(_ value: String?, of name: String) -> String? {
        guard let value, vocabulary.matches(name) else { return value }
        return digest(value)
    }

    /// `url` with the values of secret query items digested; unchanged when it has none.
    static func url(_ url: URL?) -> URL? {
        // Most URLs have no query: no need to take them apart.
        guard let url, url.query != nil else { return url }
        let string = url.absoluteString
        let digested = key(string)
        return digested == string ? url : URL(string: digested) ?? url
    }
}
