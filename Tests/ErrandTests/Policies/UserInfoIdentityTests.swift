import Errand
import ErrandTestSupport
import Foundation
import Testing

/// URLSession sends a URL's user info as `Basic` credentials, so two users who differ only in
/// it are two identities: neither a cache entry nor a coalesced flight is shared between them.
@Suite struct UserInfoIdentityTests {
    static let alice = "https://alice:alice-Passw0rd@api.example.com/me"
    static let bob = "https://alice:bob-Passw0rd@api.example.com/me"

    @Test func userInfoAndKeyAreCredentialsOfTheIdentity() {
        // Then requests that differ only in user info, or in a `key` query item, are told apart
        #expect(RequestIdentity(.get(Self.alice)) != RequestIdentity(.get(Self.bob)))
        #expect(!RequestIdentity(.get(Self.alice)).isAnonymous)
        #expect(RequestIdentity(.get("https://api.example.com/me")).isAnonymous)
        #expect(RequestIdentity(.get("/me?key=K-1")) != RequestIdentity(.get("/me?key=K-2")))
        #expect(RequestIdentity(.get("/me").query("KEY", "K-1")) != RequestIdentity(.get("/me")))
        // And an `@` in the path or query is no user info
        #expect(RequestIdentity(.get("https://api.example.com/users/@me?e=a@b.example")).isAnonymous)
        // And the identity never names the password
        #expect(!RequestIdentity(.get(Self.alice)).key.contains("alice-Passw0rd"))
    }

    @Test func aCacheEntryAnswersOnlyTheUserInfoThatFetchedIt() async throws {
        // Given a cache in front of a server that names whoever asked
        let server = InMemoryDispatcher()
        server.stub(
            .get, "/me",
            responses: [
                .text("alice's", headers: ["Cache-Control": "public, max-age=600"]),
                .text("bob's", headers: ["Cache-Control": "public, max-age=600"]),
            ])
        let cache = server.caching()
        // When alice reads, then bob with the same user name but his own password
        let first = try await cache.dispatch(.get(Self.alice))
        let second = try await cache.dispatch(.get(Self.bob))
        // Then bob gets his own answer, and alice her stored one
        #expect(String(decoding: first.body, as: UTF8.self) == "alice's")
        #expect(String(decoding: second.body, as: UTF8.self) == "bob's")
        #expect(second.cacheStatus == .network)
        #expect(try await cache.dispatch(.get(Self.alice)).cacheStatus == .hit)
    }

    @Test func aFlightIsSharedOnlyWithinOneUserInfo() {
        // Given a coalescer over a server that holds every request open
        let server = HoldingDispatcher()
        let dispatcher = server.coalescingIdenticalRequests()
        // When alice asks twice and bob once, at the same time
        for path in [Self.alice, Self.alice, Self.bob] {
            dispatcher.dispatch(request: .get(path), onSuccess: { _ in }, onError: { _ in })
        }
        // Then alice's reads share one flight and bob's has its own
        #expect(server.started.map(\.path) == [Self.alice, Self.bob])
    }
}
