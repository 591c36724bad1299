import Errand
import ErrandPolicies
import ErrandTestSupport
import Foundation
import Testing

/// The auth samples of the Authentication and Retry article (compiled in `ReadmeSamples.swift`),
/// run as written: the OAuth refresh against the token server, and the recovery from a token
/// storage error.
@Suite struct ReadmeAuthTests {
    struct Stats: Decodable, Sendable {
        let refreshes: Int
        let accepted: Int
        let refused: Int
    }

    @Test func theOAuthSampleFitsInTenLines() throws {
        let block = try #require(
            try ArticleSampleTests.swiftBlocks(of: "ErrandPolicies/AuthenticationAndRetry.md")
                .first { $0.contains("OAuthTokenResponse") })
        #expect(block.split(separator: "\n").count <= 10)
    }

    @Test(.enabled(if: LiveServer.tokenAvailable, LiveServer.skipReason))
    func theOAuthSampleRefreshesAgainstTheTokenServer() async throws {
        // Given tokens the token server has already expired
        let baseURL = try LiveServer.require(LiveServer.token, "ERRAND_TOKEN_URL")
            .appending(path: "clients/\(UUID().uuidString)")
        let transport = URLSessionDispatcher(baseURL: baseURL)
        let login = try await Request<OAuthTokenResponse>(.post("/login").query("ttl", "0"))
            .execute(dispatcher: transport)
        let storage = InMemoryTokenStorage(
            TokenPair(accessToken: login.accessToken, refreshToken: login.refreshToken))

        // When a protected resource is asked for through the article's dispatcher
        _ = try await Request<EmptyResponse>(.get("/protected")).execute(
            dispatcher: signedInAPI(baseURL: baseURL, storage: storage))

        // Then it was refused once, refreshed once at POST /token, and accepted
        let stats = try await Request<Stats>(.get("/stats")).execute(dispatcher: transport)
        #expect((stats.refused, stats.refreshes, stats.accepted) == (1, 1, 1))
        let stored = try #require(try await storage.read())
        #expect(stored.accessToken != login.accessToken)
        #expect(stored.refreshToken != login.refreshToken)
        #expect(stored.expiresAt.map { $0 > Date().addingTimeInterval(60) } == true)
    }

    @Test func theRecoverySampleClearsAnUnreadableStorage() async throws {
        // Given a corrupt token file
        let url = FileManager.default.temporaryDirectory.appending(
            path: "errand-readme-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data("{".utf8).write(to: url)
        let storage = FileTokenStorage(url: url)
        let server = InMemoryDispatcher()
        let api = server.authenticating(storage: storage) { $0 }

        // When the article's code loads the profile
        let profile = try await loadProfile(api: api, storage: storage)

        // Then the storage is cleared and the app is asked to sign in
        #expect(profile == nil)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(try await storage.read() == nil)
    }
}
