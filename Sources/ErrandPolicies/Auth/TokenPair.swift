import Errand
import Foundation

/// The credentials the auth policy sends: an access token, and what it needs to renew it.
///
/// OAuth 2 servers say how long a token lives (`expires_in`, in seconds), not when it ends:
/// ``init(accessToken:refreshToken:expiresIn:now:)`` turns one into the other, and
/// ``OAuthTokenResponse`` decodes the whole answer. Equality compares `expiresAt` exactly, and
/// the storages keep it exactly.
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

    /// Creates a token pair from a lifetime in seconds, as OAuth 2 servers give it.
    ///
    /// - Parameters:
    ///   - accessToken: The bearer token.
    ///   - refreshToken: The token that renews it, if any.
    ///   - expiresIn: How many seconds from `now` the access token works; `nil` (or NaN) when
    ///     unknown. A lifetime that ends past `Date.distantFuture` (`.infinity` too) ends there,
    ///     and one that ended before `Date.distantPast` ended there, so the pair can be stored.
    ///   - now: The time the answer arrived; the current time by default.
    public init(
        accessToken: String, refreshToken: String? = nil, expiresIn: TimeInterval?, now: Date = Date()
    ) {
        let expiry = expiresIn.flatMap { seconds -> Date? in
            guard !seconds.isNaN else { return nil }
            let latest = Date.distantFuture.timeIntervalSince(now)
            let earliest = Date.distantPast.timeIntervalSince(now)
            return now.addingTimeInterval(min(max(seconds, earliest), latest))
        }
        self.init(accessToken: accessToken, refreshToken: refreshToken, expiresAt: expiry)
    }

    /// Describes the pair without revealing the tokens.
    public var description: String {
        // Foundation stops the program describing a NaN date.
        let expiry = expiresAt.map { $0.timeIntervalSinceReferenceDate.isNaN ? "NaN" : "\($0)" }
        return "TokenPair(access: <redacted>, refresh: \(refreshToken == nil ? "none" : "<redacted>"), "
            + "expires: \(expiry ?? "unknown"))"
    }
}

/// Where the auth policy keeps the current tokens.
///
/// Implementations must be safe to call from several tasks at once, and should be classes: every
/// auth policy and `AuthState` on one storage object share one session (one refresh in flight,
/// one generation), which a value type, having no identity, cannot give them.
///
/// What a storage of your own must provide besides reading and writing:
/// ``replace(_:with:)``, a compare-and-set, which the auth policy stores a refresh's tokens with
/// (and clears an expired session with) so that a refresh that outlived its session never
/// writes over a sign-out or the next user's tokens. The default reads, compares and writes;
/// the library never runs two of its own changes to one storage at once, so it holds for every
/// change made through the library, but a storage that other code (another process, a keychain
/// shared with an extension) also writes should implement it atomically. The storages of this
/// module do.
public protocol TokenStorage: Sendable {
    /// The stored pair, or `nil` when signed out.
    func read() async throws -> TokenPair?
    /// Replaces the stored pair.
    func write(_ tokens: TokenPair) async throws
    /// Removes the stored pair (sign out, or a session that expired).
    func clear() async throws
    /// Replaces the stored pair with `replacement` (or removes it, for `nil`), only if the
    /// storage still holds `expected`.
    ///
    /// - Parameters:
    ///   - expected: The pair the change was computed from.
    ///   - replacement: The new pair, or `nil` to remove it.
    /// - Returns: Whether the storage held `expected` and was changed.
    func replace(_ expected: TokenPair, with replacement: TokenPair?) async throws -> Bool
}

extension TokenStorage {
    /// Which session the storage holds: a number that a sign-in, a sign-out and an expiry move
    /// on, and that a token refresh keeps. ``ExpiredSession/generation`` names one of these.
    ///
    /// Shared by every storage object of one store (every ``FileTokenStorage`` of one file); a
    /// storage of your own counts the changes made through the library (`AuthState`, the auth
    /// policy).
    public var sessionGeneration: UInt64 { TokenLedger.of(self).generation }

    /// Reads, compares with `expected`, and writes or clears: atomic for changes made through
    /// the library, which makes them one at a time; see ``TokenStorage``.
    ///
    /// - Parameters:
    ///   - expected: The pair the change was computed from.
    ///   - replacement: The new pair, or `nil` to remove it.
    /// - Returns: Whether the storage held `expected` and was changed.
    public func replace(_ expected: TokenPair, with replacement: TokenPair?) async throws -> Bool {
        guard try await read() == expected else { return false }
        if let replacement {
            try await write(replacement)
        } else {
            try await clear()
        }
        return true
    }
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
