import Errand
import Foundation

/// Signs in: `POST /auth/login`; sent without a token.
struct Login: RequestType {
    typealias ResponseType = LoginAnswer

    /// What the login screen collects.
    struct Credentials: Codable, Sendable {
        let username: String
        let password: String
    }

    let credentials: Credentials
    var data: RequestData {
        .post("/auth/login").body(.json(credentials)).authentication(.none)
    }
}

/// Renews the tokens: `POST /auth/refresh`; sent without a token, beneath the auth policy.
struct RefreshSession: RequestType {
    typealias ResponseType = RefreshAnswer

    private struct Body: Encodable, Sendable {
        let refreshToken: String
    }

    let refreshToken: String
    var data: RequestData {
        .post("/auth/refresh").body(.json(Body(refreshToken: refreshToken))).authentication(.none)
    }
}

/// The signed-in user: `GET /auth/me`; needs a token.
struct GetMe: RequestType {
    typealias ResponseType = User
    var data: RequestData { .get("/auth/me").authentication(.required) }
}
