import Errand
import ErrandPolicies
import ErrandSync
import ErrandTestSupport
import Foundation
import Testing

/// A refresh request sent back through its own auth policy fails at once instead of waiting for
/// its own refresh forever. (The bounded waits and time limits are hang guards: without the
/// check, these requests never finish.)
@Suite struct AuthRefreshThroughItselfTests {
    typealias Counter = AuthenticatingDispatcherTests.Counter

    /// A policy whose refresh sends `POST /token` through `route(policy)`: the mistake when that
    /// is the policy itself and the request is not marked `.authentication(.none)`.
    static func policy(
        over server: InMemoryDispatcher, storage: InMemoryTokenStorage, expiries: Counter,
        refreshErrors: Locked<[NetworkError]>,
        route: @escaping @Sendable (AuthenticatingDispatcher, Int) -> (any NetworkDispatcher, RequestData)
    ) -> AuthenticatingDispatcher {
        let policy = Locked<AuthenticatingDispatcher?>(nil)
        let calls = Counter()
        let api = server.authenticating(
            storage: storage,
            refresh: { _ in
                guard let api = policy.withLock({ $0 }) else { throw CancellationError() }
                let (dispatcher, request) = route(api, calls.increment())
                do {
                    return TokenPair(
                        accessToken: try await Request<String>(request).execute(dispatcher: dispatcher))
                } catch let error as NetworkError {
                    refreshErrors.withLock { $0.append(error) }
                    throw error
                }
            },
            onSessionExpired: { _ in expiries.increment() })
        policy.withLock { $0 = api }
        return api
    }

    static func server() -> InMemoryDispatcher {
        let server = AuthenticatingDispatcherTests.server(accepting: "new")
        server.stub(.post, "/token", response: .text("new"))
        return server
    }

    @Test(.timeLimit(.minutes(1)))
    func aRefreshThroughItsOwnPolicyFailsAtOnceAndNamesTheFix() async throws {
        // Given a refresh that sends its request through the policy it refreshes for
        let server = Self.server()
        let expiries = Counter()
        let refreshErrors = Locked<[NetworkError]>([])
        let storage = InMemoryTokenStorage(TokenPair(accessToken: "old", refreshToken: "r"))
        let api = Self.policy(
            over: server, storage: storage, expiries: expiries, refreshErrors: refreshErrors
        ) {
            api, _ in (api.retrying(.default), .post("/token"))
        }

        // When three requests are refused and need the refresh
        let probes = (0..<3).map { _ in CallbackProbe<String>() }
        for probe in probes {
            Request<String>(.get("/me"))
                .execute(
                    dispatcher: api, callbackQueue: nil, onSuccess: probe.onSuccess, onError: probe.onError)
        }

        // Then each fails once with invalidRequest, saying what was wrong and how to fix it
        await waitUntil("every request to be answered") { probes.allSatisfy { !$0.deliveries.isEmpty } }
        for probe in probes where !probe.deliveries.isEmpty {
            let error = try await probe.failure()
            #expect(error.code == .invalidRequest)
            #expect(error.message.contains("authenticating dispatcher on the same token storage"))
            #expect(error.message.contains("the dispatcher passed to the refresh closure"))
            #expect(error.message.contains(".authentication(.none)"))
            #expect(error.request?.path == "/me")
        }
        #expect(probes.allSatisfy { $0.deliveries.count == 1 })
        // the refresh request itself failed the same way, without reaching the server
        #expect(refreshErrors.withLock { $0 }.allSatisfy { $0.code == .invalidRequest })
        #expect(!refreshErrors.withLock { $0 }.isEmpty)
        #expect(!server.receivedRequests.contains { $0.path == "/token" })
        // a mistake in the app is no reason to sign the user out
        #expect(expiries.count == 0)
        #expect(try await storage.read() == TokenPair(accessToken: "old", refreshToken: "r"))
    }

    @Test(.timeLimit(.minutes(1)))
    func thePolicyWorksOnceTheRefreshRequestIsMarkedNone() async throws {
        // Given a refresh that makes the mistake once, then marks its request `.none`
        let server = Self.server()
        let expiries = Counter()
        let api = Self.policy(
            over: server, storage: InMemoryTokenStorage(TokenPair(accessToken: "old")), expiries: expiries,
            refreshErrors: Locked([])
        ) { api, call in
            (api, call == 1 ? .post("/token") : RequestData.post("/token").authentication(.none))
        }

        // When two requests are sent in turn
        await #expect(throws: NetworkError.self) {
            try await Request<String>(.get("/me")).execute(dispatcher: api)
        }
        let second = try await Request<String>(.get("/me")).execute(dispatcher: api)

        // Then the first fails, the second refreshes and succeeds
        #expect(second == "hello new")
        #expect(server.receivedRequests.filter { $0.path == "/token" }.count == 1)
        #expect(expiries.count == 0)
    }

    @Test func aRefreshThroughAnotherAuthPolicyIsNoMistake() async throws {
        // Given a refresh sent through a second, separate auth policy over the same server
        let server = Self.server()
        let other = server.authenticating(storage: InMemoryTokenStorage(TokenPair(accessToken: "client"))) {
            $0
        }
        let api = server.authenticating(storage: InMemoryTokenStorage(TokenPair(accessToken: "old"))) { _ in
            TokenPair(accessToken: try await Request<String>(.post("/token")).execute(dispatcher: other))
        }

        // When a request needs a refresh, then it succeeds
        #expect(try await Request<String>(.get("/me")).execute(dispatcher: api) == "hello new")
        #expect(
            server.receivedRequests.first { $0.path == "/token" }?.headers["Authorization"] == "Bearer client"
        )
    }
}
