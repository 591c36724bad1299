import Foundation

/// The credentials the auth policy sends: an access token, and what it needs to renew it.
public struct TokenPair: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The bearer token sent in `Authorization`.
    public var accessToken: String
    /// The token used to get a new access token, when the server issues one.
    public var refreshToken: String?
    /// When the access token stops working, when the server says.
    public var expiresAt: Date?

    /// Creates a token pair.
    public init(accessToken: String, refreshToken: String? = nil, expiresAt: Date? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
    }

    /// Describes the pair without revealing the tokens.
    public var description: String {
        "TokenPair(access: <redacted>, refresh: \(refreshToken == nil ? "none" : "<redacted>"), "
            + "expires: \(expiresAt.map { "\($0)" } ?? "unknown"))"
    }
}

/// Where the auth policy keeps the current tokens.
///
/// Implementations must be safe to call from several tasks at once.
public protocol TokenStorage: Sendable {
    /// The stored pair, or `nil` when signed out.
    func read() async throws -> TokenPair?
    /// Replaces the stored pair.
    func write(_ tokens: TokenPair) async throws
    /// Removes the stored pair (sign out, or a session that expired).
    func clear() async throws
}

/// Turns the current tokens into new ones, usually by calling the server's refresh endpoint.
public protocol TokenRefresher: Sendable {
    /// Returns a new pair for `current`.
    ///
    /// - Throws: Any error when the refresh fails. A `NetworkError` of code `transport` or
    ///   `timedOut`, or a 5xx status, counts as temporary: the session is kept. Anything else
    ///   (a 400 or 401 from the token endpoint, say) ends the session.
    func refresh(_ current: TokenPair) async throws -> TokenPair
}

/// A token refresher made from a closure.
public struct ClosureTokenRefresher: TokenRefresher {
    private let body: @Sendable (TokenPair) async throws -> TokenPair

    /// Creates a refresher that runs `body`.
    public init(_ body: @escaping @Sendable (TokenPair) async throws -> TokenPair) {
        self.body = body
    }

    /// Runs the closure.
    public func refresh(_ current: TokenPair) async throws -> TokenPair {
        try await body(current)
    }
}
