import Errand
import ErrandPolicies
import Foundation

/// The signed-in user, as `/auth/me` describes them.
struct User: Codable, Hashable, Sendable {
    let id: Int
    let username: String
    let email: String
    let firstName: String
    let lastName: String
}

/// The answer to a login: the user and their tokens.
struct LoginAnswer: Decodable, Sendable {
    let id: Int
    let username: String
    let firstName: String
    let lastName: String
    let accessToken: String
    let refreshToken: String
    /// The access token's lifetime in seconds.
    let expiresIn: TimeInterval?

    /// The tokens to store, their expiry counted from `now`.
    func tokens(now: Date) -> TokenPair {
        TokenPair(accessToken: accessToken, refreshToken: refreshToken, expiresIn: expiresIn, now: now)
    }
}

/// The answer to a refresh: new tokens.
struct RefreshAnswer: Decodable, Sendable {
    let accessToken: String
    let refreshToken: String?
    let expiresIn: TimeInterval?

    /// The tokens to store, keeping the old refresh token when no new one came.
    func tokens(replacing previous: TokenPair, now: Date) -> TokenPair {
        TokenPair(
            accessToken: accessToken, refreshToken: refreshToken ?? previous.refreshToken,
            expiresIn: expiresIn, now: now)
    }
}

/// The body of an error answer: `{"message": "..."}`.
struct ServerMessage: Decodable, Sendable {
    let message: String
}
