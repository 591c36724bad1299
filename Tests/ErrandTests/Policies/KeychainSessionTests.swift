import ErrandSync
import Foundation
import Testing

@testable import Errand
@testable import ErrandPolicies

/// The keychain storage behind a real auth policy: requests read the item once, every storage
/// of one item shares one session, a change made by another process is read after a 401, and
/// a locked device ends nothing.
@Suite struct KeychainSessionTests {
    typealias Counter = AuthenticatingDispatcherTests.Counter
    static let query = KeychainTokenStoreTests.query()

    static func echoServer() -> InMemoryDispatcher {
        let server = InMemoryDispatcher()
        server.stub(.get, "/me", response: .text("ok"))
        return server
    }

    static func authorization(of server: InMemoryDispatcher) -> [String?] {
        server.receivedRequests.map { $0.headers["Authorization"] }
    }

    /// A server that accepts only `Bearer <accepted>` on `GET /me`, whatever `accepted` holds then.
    static func server(accepting accepted: Locked<String>) -> InMemoryDispatcher {
        let server = InMemoryDispatcher()
        server.stub(.get, "/me", response: .status(401, headers: ["WWW-Authenticate": "Bearer"]))
        server.stub(
            InMemoryDispatcher.Stub(
                .get, "/me",
                where: { request in accepted.withLock { request.headers["Authorization"] == "Bearer \($0)" }
                },
                responses: [.text("ok")]))
        return server
    }

    @Test func manyRequestsReadTheItemOnce() async throws {
        // Given a stored item behind an auth policy
        let keychain = FakeKeychain()
        try keychain.putBehindTheStoragesBack(TokenPair(accessToken: "a"), for: Self.query)
        let server = Self.echoServer()
        let store = KeychainTokenStore(query: Self.query, items: keychain)
        let api = server.authenticating(storage: store) { _ in TokenPair(accessToken: "unused") }

        // When ten requests are sent
        for _ in 0..<10 { _ = try await Request<String>(.get("/me")).execute(dispatcher: api) }

        // Then each carried the token, and the keychain was read once
        #expect(Self.authorization(of: server) == Array(repeating: "Bearer a", count: 10))
        #expect(keychain.count(.copy) == 1)
    }

    @Test func twoStoragesOfOneItemShareOneSession() async throws {
        // Given two storages of one item, as an app makes them in two places
        let keychain = FakeKeychain()
        let settings = KeychainTokenStore(query: Self.query, items: keychain)
        let client = KeychainTokenStore(query: Self.query, items: keychain)
        try await settings.write(TokenPair(accessToken: "first"))
        let server = Self.echoServer()
        let api = server.authenticating(storage: client) { _ in TokenPair(accessToken: "unused") }
        _ = try await Request<String>(.get("/me")).execute(dispatcher: api)
        _ = try await Request<String>(.get("/me")).execute(dispatcher: api)

        // When another user signs in through the other storage, and then signs out
        try await settings.write(TokenPair(accessToken: "second"))
        _ = try await Request<String>(.get("/me")).execute(dispatcher: api)
        try await settings.clear()
        _ = try await Request<String>(.get("/me")).execute(dispatcher: api)

        // Then the policy sent each session's token, then none, reading the item only after a change
        #expect(TokenLedger.of(settings) === TokenLedger.of(client))
        #expect(Self.authorization(of: server) == ["Bearer first", "Bearer first", "Bearer second", nil])
        #expect(keychain.count(.copy) == 3)
    }

    @Test func anotherItemOrAnotherKeychainHasASessionOfItsOwn() {
        let keychain = FakeKeychain()
        let store = KeychainTokenStore(query: Self.query, items: keychain)
        let ledger = TokenLedger.of(store)
        let others = [
            KeychainTokenStoreTests.query(account: "other"),
            KeychainTokenStoreTests.query(service: "other"),
            KeychainTokenStoreTests.query(accessGroup: "TEAMID.group"),
            KeychainTokenStoreTests.query(dataProtection: false),
        ]

        for query in others {
            #expect(TokenLedger.of(KeychainTokenStore(query: query, items: keychain)) !== ledger)
        }
        #expect(
            TokenLedger.of(KeychainTokenStore(query: Self.query, items: keychain.anotherProcess())) !== ledger
        )
        // The accessibility is how the item is kept, not which item it is.
        let relaxed = KeychainTokenStoreTests.query(accessibility: .afterFirstUnlock)
        #expect(TokenLedger.of(KeychainTokenStore(query: relaxed, items: keychain)) === ledger)
        withExtendedLifetime(store) {}
    }

    @Test func aChangeMadeByAnotherProcessIsReadAfterA401() async throws {
        // Given a server that accepts one token at a time, and a policy that has read the item
        let accepted = Locked("old")
        let server = Self.server(accepting: accepted)
        let keychain = FakeKeychain()
        let store = KeychainTokenStore(query: Self.query, items: keychain)
        try await store.write(TokenPair(accessToken: "old", refreshToken: "r"))
        let refreshes = Counter()
        let api = server.authenticating(storage: store) { _ in
            refreshes.increment()
            return TokenPair(accessToken: "unused")
        }
        _ = try await Request<String>(.get("/me")).execute(dispatcher: api)

        // When an app extension refreshes the tokens in its own process
        let other = KeychainTokenStore(query: Self.query, items: keychain.anotherProcess())
        try await other.write(TokenPair(accessToken: "new", refreshToken: "r2"))
        accepted.withLock { $0 = "new" }
        _ = try await Request<String>(.get("/me")).execute(dispatcher: api)
        _ = try await Request<String>(.get("/me")).execute(dispatcher: api)

        // Then the refused old token sent the policy to the keychain, which had the new one
        #expect(refreshes.count == 0)
        #expect(Self.authorization(of: server) == ["Bearer old", "Bearer old", "Bearer new", "Bearer new"])
    }

    @Test func aLockedDeviceFailsTheRequestAndKeepsTheSession() async throws {
        // Given a stored item behind a policy, on a device that is locked
        let keychain = FakeKeychain()
        try keychain.putBehindTheStoragesBack(TokenPair(accessToken: "a", refreshToken: "r"), for: Self.query)
        let store = KeychainTokenStore(query: Self.query, items: keychain)
        let expired = Counter()
        let server = AuthenticatingDispatcherTests.server(accepting: "a")
        let api = server.authenticating(
            storage: store, refresh: { _ in TokenPair(accessToken: "unused") },
            onSessionExpired: { _ in expired.increment() })
        let generation = store.ledger.generation
        keychain.isLocked = true

        // When a request is sent
        let error = try await #require(throws: NetworkError.self) {
            try await Request<String>(.get("/me").authentication(.required)).execute(dispatcher: api)
        }

        // Then it fails as temporary, sends nothing, and ends no session
        #expect(error.code == .tokenStorageUnavailable)
        #expect(error.request?.path == "/me")
        #expect(server.receivedRequests.isEmpty)
        #expect(expired.count == 0)
        #expect(store.ledger.generation == generation)

        // When the device is unlocked, the next request carries the stored token
        keychain.isLocked = false
        #expect(try await Request<String>(.get("/me")).execute(dispatcher: api) == "hello a")
    }

    @Test func aRefreshThatFindsTheDeviceLockedKeepsTheSession() async throws {
        // Given a policy that has sent the stored token once
        let keychain = FakeKeychain()
        let store = KeychainTokenStore(query: Self.query, items: keychain)
        try await store.write(TokenPair(accessToken: "old", refreshToken: "r"))
        let expired = Counter()
        let refreshes = Counter()
        let accepted = Locked("old")
        let server = Self.server(accepting: accepted)
        let api = server.authenticating(
            storage: store,
            refresh: { _ in
                refreshes.increment()
                return TokenPair(accessToken: "new", refreshToken: "r2")
            }, onSessionExpired: { _ in expired.increment() })
        _ = try await Request<String>(.get("/me")).execute(dispatcher: api)
        let generation = store.ledger.generation

        // When the server refuses it while the device is locked
        accepted.withLock { $0 = "new" }
        keychain.isLocked = true
        let error = try await #require(throws: NetworkError.self) {
            try await Request<String>(.get("/me")).execute(dispatcher: api)
        }

        // Then the request fails as temporary; nothing was refreshed, cleared or ended
        #expect(error.code == .tokenStorageUnavailable)
        #expect(refreshes.count == 0 && expired.count == 0)
        #expect(store.ledger.generation == generation)
        #expect(keychain.item(Self.query) != nil)

        // When the device is unlocked, the next request refreshes and goes through
        keychain.isLocked = false
        #expect(try await Request<String>(.get("/me")).execute(dispatcher: api) == "ok")
        #expect(refreshes.count == 1 && expired.count == 0)
        #expect(Self.authorization(of: server) == ["Bearer old", "Bearer old", "Bearer old", "Bearer new"])
    }
}
