import Errand
import ErrandPolicies
import ErrandSync
import ErrandTestSupport
import Foundation
import Testing

/// The HTTP cache across users: an entry answers only the identity that fetched it, and nothing
/// fetched before a `clear()` is stored after it.
@Suite struct SessionBoundaryCacheTests {
    /// A server whose answer names the credentials it was sent, with a `Cache-Control` of its
    /// own choosing; it counts what it received.
    final class EchoServer: NetworkDispatcher {
        let cacheControl: String
        private let received = Locked<[RequestData]>([])

        init(cacheControl: String) {
            self.cacheControl = cacheControl
        }

        var receivedRequests: [RequestData] { received.withLock { $0 } }

        func dispatch(
            request: RequestData, onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
            onError: @escaping @Sendable (NetworkError) -> Void
        ) -> any Cancellable {
            received.withLock { $0.append(request) }
            let who = request.headers["Authorization"] ?? request.headers["X-API-Key"] ?? "anonymous"
            onSuccess(
                NetworkResponse(
                    statusCode: 200, headers: ["Cache-Control": cacheControl], body: Data("for \(who)".utf8),
                    request: request))
            return CancellableAction {}
        }
    }

    static func server(cacheControl: String) -> EchoServer {
        EchoServer(cacheControl: cacheControl)
    }

    static func read(_ dispatcher: any NetworkDispatcher, as credentials: String?) async throws -> String {
        var request = RequestData.get("/me")
        if let credentials { request.headers.set("Authorization", credentials) }
        return try await Request<String>(request).execute(dispatcher: dispatcher)
    }

    @Test(arguments: [
        "public, max-age=60", "s-maxage=60, max-age=60", "max-age=60, must-revalidate",
        "private, must-revalidate, max-age=60",
    ])
    func anEntryFetchedWithOneUsersCredentialsAnswersNoOtherUserAndNoAnonymousRequest(
        cacheControl: String
    ) async throws {
        // Given user A's answer stored, whatever its Cache-Control allows a shared cache
        let server = Self.server(cacheControl: cacheControl)
        let cache = server.caching(MemoryCacheStore())
        #expect(try await Self.read(cache, as: "Bearer alice") == "for Bearer alice")
        // When user B, then nobody, asks for the same URL
        let asB = try await Self.read(cache, as: "Bearer bob")
        let anonymous = try await Self.read(cache, as: nil)
        // Then each gets its own answer, and A's is still A's
        #expect(asB == "for Bearer bob")
        #expect(anonymous == "for anonymous")
        #expect(try await Self.read(cache, as: "Bearer alice") == "for Bearer alice")
        #expect(server.receivedRequests.count == 3)
    }

    @Test func anAPIKeyIsACredentialToo() async throws {
        let server = Self.server(cacheControl: "public, max-age=60")
        let cache = server.caching(MemoryCacheStore())
        let tenantA = cache.intercepted(by: [APIKeyInterceptor("key-a")])
        let tenantB = cache.intercepted(by: [APIKeyInterceptor("key-b")])
        #expect(try await Self.read(tenantA, as: nil) == "for key-a")
        #expect(try await Self.read(tenantB, as: nil) == "for key-b")
    }

    /// How a sign-out empties the cache: through the cache, or through one of this module's
    /// stores directly (an `alsoClear` made before the cache).
    enum Emptying: String, CaseIterable, Sendable {
        case cacheClear, memoryStore, diskStore

        func makeStore() -> any CacheStore {
            switch self {
            case .cacheClear, .memoryStore:
                return MemoryCacheStore()
            case .diskStore:
                return DiskCacheStore(
                    directory: FileManager.default.temporaryDirectory
                        .appendingPathComponent("errand-cache-\(UUID().uuidString)"))
            }
        }
    }

    @Test(arguments: Emptying.allCases)
    func aMissInFlightAcrossAClearIsDeliveredButNotStored(emptying: Emptying) async throws {
        // Given a read on its way to the server
        let server = HoldingDispatcher()
        let store = emptying.makeStore()
        let cache = server.caching(store)
        let probe = CallbackProbe<String>()
        Request<String>(.get("/me"))
            .execute(
                dispatcher: cache, callbackQueue: nil, onSuccess: probe.onSuccess, onError: probe.onError)
        await waitUntil("the read is sent") { server.openCount == 1 }
        // When the cache or its store is emptied (a sign-out) before the answer comes
        if emptying == .cacheClear { cache.clear() } else { store.removeAll() }
        server.answerOldest(headers: ["Cache-Control": "max-age=60"]) { _ in "old user's" }
        // Then the caller has it, and the next read goes to the server
        #expect(try await probe.first().get() == "old user's")
        let next = CallbackProbe<String>()
        Request<String>(.get("/me"))
            .execute(dispatcher: cache, callbackQueue: nil, onSuccess: next.onSuccess, onError: next.onError)
        await waitUntil("the next read is sent") { server.openCount == 1 }
        server.answerOldest(headers: ["Cache-Control": "max-age=60"]) { _ in "next user's" }
        #expect(try await next.first().get() == "next user's")
    }

    @Test func withTheAuthPolicyInsideAnAnswerCachedSignedOutNeverAnswersASignedInUser() async throws {
        // Given a cache outside the auth policy, and an answer stored while signed out
        let server = Self.server(cacheControl: "max-age=60")
        let storage = InMemoryTokenStorage()
        let api = server.authenticating(storage: storage) { $0 }.caching(MemoryCacheStore())
        #expect(try await Self.read(api, as: nil) == "for anonymous")
        #expect(try await Self.read(api, as: nil) == "for anonymous")
        #expect(server.receivedRequests.count == 1)
        // When A signs in, then B replaces A
        try await storage.write(TokenPair(accessToken: "alice"))
        let asA = try await Self.read(api, as: nil)
        #expect(try await Self.read(api, as: nil) == "for Bearer alice")
        try await storage.write(TokenPair(accessToken: "bob"))
        let asB = try await Self.read(api, as: nil)
        try await storage.clear()
        let signedOut = try await Self.read(api, as: nil)
        // Then every session gets its own answers, and A's hit came from A's own entry
        #expect(asA == "for Bearer alice")
        #expect(asB == "for Bearer bob")
        #expect(signedOut == "for anonymous")
        #expect(server.receivedRequests.count == 4)
    }

    @Test func anEntryWrittenBeforeEntriesNamedTheirIdentityAnswersNobody() throws {
        // Given an entry as an earlier version wrote it to disk, with no identity
        let json = """
            {"key":"https://api.example.com/me","method":"GET","statusCode":200,
             "headers":[["Cache-Control","public, max-age=60"]],"body":"",
             "requestTime":0,"responseTime":0,"varyingRequestHeaders":{}}
            """
        let entry = try JSONDecoder().decode(CachedResponse.self, from: Data(json.utf8))
        // Then it belongs to no identity a request can have
        #expect(entry.identity != RequestIdentity.anonymous.key)
        #expect(entry.identity != RequestIdentity(.get("/me").header("Authorization", "Bearer a")).key)
    }
}
