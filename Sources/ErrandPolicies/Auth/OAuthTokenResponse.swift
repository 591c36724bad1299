import Errand
import Foundation

/// The answer of an OAuth 2 token endpoint (RFC 6749, section 5.1), to name as a request's
/// `ResponseType`.
///
/// ```swift
/// let answer = try await Request<OAuthTokenResponse>(refresh).execute(dispatcher: transport)
/// return answer.tokenPair(replacing: tokens)
/// ```
///
/// Decodes `access_token`, `refresh_token`, `expires_in` and `token_type` (the camel-case
/// spellings too, so a decoder that converts from snake case works as well); `expires_in` may
/// be a number or a numeric string, as some servers send it.
public struct OAuthTokenResponse: Decodable, Hashable, Sendable, CustomStringConvertible {
    /// The new access token.
    public var accessToken: String
    /// The new refresh token; `nil` when the server keeps the old one valid.
    public var refreshToken: String?
    /// The access token's lifetime in seconds, when the server says.
    public var expiresIn: TimeInterval?
    /// The token type, usually `Bearer`.
    public var tokenType: String?
    /// The granted scope, when the server says.
    public var scope: String?

    /// Creates an answer, for tests and for servers with their own format.
    public init(
        accessToken: String, refreshToken: String? = nil, expiresIn: TimeInterval? = nil,
        tokenType: String? = "Bearer", scope: String? = nil
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.tokenType = tokenType
        self.scope = scope
    }

    /// Decodes the standard fields from a token endpoint's JSON answer.
    ///
    /// - Throws: `DecodingError` when `access_token` is missing or a field has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        accessToken = try container.decode(
            String.self, forKey: Self.key(container, "access_token", "accessToken"))
        refreshToken = try container.decodeIfPresent(
            String.self, forKey: Self.key(container, "refresh_token", "refreshToken"))
        tokenType = try container.decodeIfPresent(
            String.self, forKey: Self.key(container, "token_type", "tokenType"))
        scope = try container.decodeIfPresent(String.self, forKey: Key("scope"))
        let lifetime = Self.key(container, "expires_in", "expiresIn")
        if let text = try? container.decodeIfPresent(String.self, forKey: lifetime) {
            // "inf" and "nan" read as numbers, but name no lifetime.
            guard let seconds = TimeInterval(text), seconds.isFinite else {
                throw DecodingError.dataCorruptedError(
                    forKey: lifetime, in: container,
                    debugDescription: "\"\(text)\" is not a number of seconds")
            }
            expiresIn = seconds
        } else {
            expiresIn = try container.decodeIfPresent(TimeInterval.self, forKey: lifetime)
        }
    }

    /// The pair to store: the new access token, its expiry counted from `now`, and the new
    /// refresh token, or the one in `previous` when the server sent none (it then stays valid).
    ///
    /// - Parameters:
    ///   - previous: The tokens being refreshed; `nil` after a sign-in.
    ///   - now: The time the answer arrived; the current time by default.
    /// - Returns: The tokens for ``TokenStorage``.
    public func tokenPair(replacing previous: TokenPair? = nil, now: Date = Date()) -> TokenPair {
        TokenPair(
            accessToken: accessToken, refreshToken: refreshToken ?? previous?.refreshToken,
            expiresIn: expiresIn, now: now)
    }

    /// Describes the answer without revealing the tokens.
    public var description: String {
        "OAuthTokenResponse(access: <redacted>, refresh: \(refreshToken == nil ? "none" : "<redacted>"), "
            + "expiresIn: \(expiresIn.map { "\($0)" } ?? "unknown"), type: \(tokenType.map(EscapedText.line) ?? "unknown"))"
    }

    /// Any key, so each field can be found under either spelling.
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The key for a field: its snake-case name, or the camel-case one when only that is there.
    private static func key(_ container: KeyedDecodingContainer<Key>, _ snake: String, _ camel: String) -> Key
    {
        container.contains(Key(snake)) || !container.contains(Key(camel)) ? Key(snake) : Key(camel)
    }
}
