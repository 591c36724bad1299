import Errand
import ErrandPolicies
import ErrandTestSupport
import Foundation
import Testing

/// Coalescing across users: a flight is shared only within one identity and one session.
@Suite struct SessionBoundaryCoalescingTests {
    /// Two reads of `/me` through `dispatcher`, the second sent while the first is held.
    static func twoReads(
        through dispatcher: any NetworkDispatcher, server: HoldingDispatcher, _ first: RequestData,
        _ second: RequestData, between: () async throws -> Void = {}
    ) async throws -> (String, String) {
        let probes = [CallbackProbe<String>(), CallbackProbe<String>()]
        Request<String>(first)
            .execute(
                dispatcher: dispatcher, callbackQueue: nil, onSuccess: probes[0].onSuccess,
                onError: probes[0].onError)
        await waitUntil("the first read is sent") { server.openCount == 1 }
        try await between()
        Request<String>(second)
            .execute(
                dispatcher: dispatcher, callbackQueue: nil, onSuccess: probes[1].onSuccess,
                onError: probes[1].onError)
        // Each request held is answered with the credentials it went out with.
        let answer: (RequestData) -> String = { request in
            let credential = request.headers.first { SecretVocabulary.default.matches($0.name) }
            return "for \(credential?.value ?? "anonymous")"
        }
        if server.openCount < 2 { await waitUntil("a second dispatch, if any") { server.started.count == 2 } }
        while server.answerOldest(headers: [:], body: answer) {}
        return (try await probes[0].first().get(), try await probes[1].first().get())
    }

    @Test(arguments: [
        "X-API-Key", "X-Auth-Token", "Proxy-Authorization", "Authorization", "Cookie", "X-Goog-Api-Key",
        "Ocp-Apim-Subscription-Key", "X-Amz-Security-Token", "X-Functions-Key", "Private-Token",
        "X-Session-Token", "Session-Id", "X-Session-Id",
    ])
    func readsThatDifferOnlyInACredentialHeaderAreNeverMerged(header: String) async throws {
        let server = HoldingDispatcher()
        let coalescer = server.coalescingIdenticalRequests()
        let (first, second) = try await Self.twoReads(
            through: coalescer, server: server, .get("/me").header(header, "alice"),
            .get("/me").header(header, "bob"))
        #expect(server.started.count == 2)
        #expect(first == "for alice")
        #expect(second == "for bob")
        #expect(server.started.map { $0.headers[header] } == ["alice", "bob"])
    }

    @Test func aSignedInReadAndAnAnonymousOneAreNeverMerged() async throws {
        let server = HoldingDispatcher()
        let coalescer = server.coalescingIdenticalRequests()
        let (first, second) = try await Self.twoReads(
            through: coalescer, server: server, .get("/me").header("Authorization", "Bearer alice"),
            .get("/me"))
        #expect(first == "for Bearer alice")
        #expect(second == "for anonymous")
    }

    @Test func tenantKeysOfTheLibrarysOwnInterceptorOverASharedCoalescerAreNeverMerged() async throws {
        let server = HoldingDispatcher()
        let shared = server.coalescingIdenticalRequests()
        let tenantA = shared.intercepted(by: [APIKeyInterceptor("key-a")])
        let tenantB = shared.intercepted(by: [APIKeyInterceptor("key-b")])
        let probes = [CallbackProbe<String>(), CallbackProbe<String>()]
        for (probe, tenant) in zip(probes, [tenantA, tenantB]) {
            Request<String>(.get("/me"))
                .execute(
                    dispatcher: tenant, callbackQueue: nil, onSuccess: probe.onSuccess, onError: probe.onError
                )
        }
        await waitUntil("both reads are sent") { server.openCount == 2 }
        while server.answerOldest(headers: [:], body: { "for \($0.headers["X-API-Key"] ?? "nobody")" }) {}
        #expect(try await probes[0].first().get() == "for key-a")
        #expect(try await probes[1].first().get() == "for key-b")
    }

    @Test func withTheCoalescerOutsideTheAuthPolicyAReadAfterASignInNeverJoinsThePreviousUsersFlight()
        async throws
    {
        // Given user A's read in flight through `.authenticating(…).coalescingIdenticalRequests()`
        let server = HoldingDispatcher()
        let storage = InMemoryTokenStorage(TokenPair(accessToken: "alice"))
        let api = server.authenticating(storage: storage) { $0 }.coalescingIdenticalRequests()
        // When user B signs in and reads the same URL while it is held
        let (first, second) = try await Self.twoReads(
            through: api, server: server, .get("/me"), .get("/me"),
            between: { try await storage.write(TokenPair(accessToken: "bob")) })
        // Then B's read went out on its own, with B's token
        #expect(first == "for Bearer alice")
        #expect(second == "for Bearer bob")
    }

    @Test func withTheCoalescerOutsideTheAuthPolicyASignedOutReadNeverJoinsASignedInFlight() async throws {
        let server = HoldingDispatcher()
        let storage = InMemoryTokenStorage(TokenPair(accessToken: "alice"))
        let api = server.authenticating(storage: storage) { $0 }.coalescingIdenticalRequests()
        let (first, second) = try await Self.twoReads(
            through: api, server: server, .get("/me"), .get("/me"), between: { try await storage.clear() })
        #expect(first == "for Bearer alice")
        #expect(second == "for anonymous")
    }

    @Test func readsOfOneUserInOneSessionAreStillMerged() async throws {
        let server = HoldingDispatcher()
        let storage = InMemoryTokenStorage(TokenPair(accessToken: "alice"))
        let api = server.authenticating(storage: storage) { $0 }.coalescingIdenticalRequests()
        let probes = [CallbackProbe<String>(), CallbackProbe<String>()]
        for probe in probes {
            Request<String>(.get("/me"))
                .execute(
                    dispatcher: api, callbackQueue: nil, onSuccess: probe.onSuccess, onError: probe.onError)
        }
        await waitUntil("the shared read is sent") { server.openCount == 1 }
        server.answerOldest(headers: [:]) { "for \($0.headers["Authorization"] ?? "anonymous")" }
        #expect(try await probes[0].first().get() == "for Bearer alice")
        #expect(try await probes[1].first().get() == "for Bearer alice")
        #expect(server.started.count == 1)
    }
}
