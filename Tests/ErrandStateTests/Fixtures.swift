import Errand
import ErrandPolicies
import ErrandTestSupport
import Foundation

/// An item of the lists and searches in these tests.
struct Item: Codable, Sendable, Hashable {
    let id: Int
}

/// An envelope with a cursor, as cursor-paged APIs answer.
struct Feed: Codable, Sendable {
    let items: [Item]
    let next: String?
}

/// The answer of the sign-in stubs and of the token server.
struct Tokens: Codable, Sendable {
    let accessToken: String
    let refreshToken: String?
    let user: String?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case user
    }
}

/// Credentials a sign-in form sends.
struct Credentials: Sendable {
    let email: String
    let password: String
}

extension Array where Element == Item {
    /// Items with these ids.
    static func ids(_ ids: Int...) -> [Item] { ids.map(Item.init(id:)) }
}

/// A token storage that fails every call, to see storage errors surface.
struct BrokenTokenStorage: TokenStorage {
    struct Failure: Error {}
    func read() async throws -> TokenPair? { throw Failure() }
    func write(_ tokens: TokenPair) async throws { throw Failure() }
    func clear() async throws { throw Failure() }
}
