import Errand
import ErrandPolicies
import ErrandSync
import ErrandTestSupport
import Foundation
import Testing

/// Tokens across a session change: a refresh never outlives its session, and every policy on one
/// storage shares its refresh.
@Suite struct SessionBoundaryAuthTests {
    typealias Counter = AuthenticatingDispatcherTests.Counter

    /// The storages a session test runs on: in memory, and a file.
    enum Kind: String, CaseIterable, Sendable {
        case memory, file

        func make(_ tokens: TokenPair) async throws -> any TokenStorage {
            switch self {
            case .memory:
                return InMemoryTokenStorage(tokens)
            case .file:
                let url = FileManager.default.temporaryDirectory
                    .appendingPathComponent("errand-session-\(UUID().uuidString)/tokens.json")
                let storage = FileTokenStorage(url: url)
                try await storage.write(tokens)
                return storage
            }
        }
    }

    static let userA = TokenPair(accessToken: "a1", refreshToken: "ra1")
    static let userB = TokenPair(accessToken: "b1", refreshToken: "rb1")

    /// A `/me` request through `dispatcher`, answered into a probe.
    static func me(through dispatcher: any NetworkDispatcher) -> CallbackProbe<String> {
        let probe = CallbackProbe<String>()
        Request<String>(.get("/me"))
            .execute(
                dispatcher: dispatcher, callbackQueue: nil, onSuccess: probe.onSuccess, onError: probe.onError
            )
        return probe
    }

    /// The 401 of user A's request, then a refresh held on `clock` until the test lets it finish.
    static func refusedWhileRefreshing(
        _ kind: Kind, refresh: @escaping @Sendable (TokenPair) throws -> TokenPair,
        expiries: Counter = Counter()
    ) async throws -> (any TokenStorage, HoldingDispatcher, ManualClock, CallbackProbe<String>) {
        let clock = ManualClock()
        let storage = try await kind.make(userA)
        let server = HoldingDispatcher()
        let api = server.authenticating(
            storage: storage,
            refresh: { tokens in
                try await clock.sleep(for: .seconds(1))
                return try refresh(tokens)
            }, onSessionExpired: { _ in expiries.increment() })
        let probe = me(through: api)
        await waitUntil("A's request is sent") { server.openCount == 1 }
        server.answerOldest(status: 401)
        await clock.waitForSleepers()
        return (storage, server, clock, probe)
    }

    /// Waits until `probe` hears or the server gets a second request, then says what came.
    static func outcome(of probe: CallbackProbe<String>, server: HoldingDispatcher) async -> NetworkError
        .Code?
    {
        await waitUntil("the request ends or is sent again") {
            !probe.deliveries.isEmpty || server.started.count > 1
        }
        guard case .failure(let error)? = probe.deliveries.first else { return nil }
        return error.code
    }

    @Test(arguments: Kind.allCases)
    func aRefreshInFlightAcrossASignOutStoresNothing(kind: Kind) async throws {
        // Given user A's request waiting for a refresh
        let (storage, server, clock, probe) = try await Self.refusedWhileRefreshing(kind) { _ in
            TokenPair(accessToken: "a2", refreshToken: "ra2")
        }
        // When A signs out before the refresh answers
        try await storage.clear()
        clock.advance(by: .seconds(1))
        // Then the sign-out holds, and A's request is not sent again
        #expect(await Self.outcome(of: probe, server: server) == .sessionEnded)
        #expect(try await storage.read() == nil)
        if let file = storage as? FileTokenStorage {
            #expect(try await FileTokenStorage(url: file.url).read() == nil)
            #expect(!FileManager.default.fileExists(atPath: file.url.path))
        }
        #expect(server.started.count == 1)
    }

    @Test(arguments: Kind.allCases)
    func aRefreshThatOutlivesAnAccountSwitchNeverReplacesTheNextUsersTokens(kind: Kind) async throws {
        // Given user A's request waiting for a refresh
        let (storage, server, clock, probe) = try await Self.refusedWhileRefreshing(kind) { _ in
            TokenPair(accessToken: "a2", refreshToken: "ra2")
        }
        // When user B signs in before it answers
        try await storage.write(Self.userB)
        clock.advance(by: .seconds(1))
        // Then B's tokens stay, and A's request is never sent with B's token
        #expect(await Self.outcome(of: probe, server: server) == .sessionEnded)
        #expect(try await storage.read() == Self.userB)
        #expect(server.started.map { $0.headers["Authorization"] } == ["Bearer a1"])
    }

    @Test(arguments: Kind.allCases, [false, true])
    func aRefreshOfAnEndedSessionLeavesASessionThatStoredItsPairAgainAlone(kind: Kind, refused: Bool)
        async throws
    {
        struct InvalidGrant: Error {}
        let expiries = Counter()
        // Given user A's request waiting for a refresh
        let (storage, server, clock, probe) = try await Self.refusedWhileRefreshing(
            kind,
            refresh: { _ in
                if refused { throw InvalidGrant() }
                return TokenPair(accessToken: "a2", refreshToken: "ra2")
            }, expiries: expiries)
        // When the app switches to B and back to A's saved pair before it answers
        try await storage.write(Self.userB)
        try await storage.write(Self.userA)
        clock.advance(by: .seconds(1))
        // Then A's new session keeps its pair, unrenewed and uncleared, and nobody hears of an
        // expiry: the pair is the same, the session is not
        #expect(await Self.outcome(of: probe, server: server) == .sessionEnded)
        #expect(try await storage.read() == Self.userA)
        #expect(expiries.count == 0)
        #expect(server.started.count == 1)
    }

    @Test(arguments: Kind.allCases)
    func aRefusedRefreshOfAnEndedSessionSignsNobodyOut(kind: Kind) async throws {
        struct InvalidGrant: Error {}
        let expiries = Counter()
        // Given user A's request waiting for a refresh that the server will refuse
        let (storage, server, clock, probe) = try await Self.refusedWhileRefreshing(
            kind, refresh: { _ in throw InvalidGrant() }, expiries: expiries)
        // When A signs out and B signs in before the refusal arrives
        try await storage.clear()
        try await storage.write(Self.userB)
        clock.advance(by: .seconds(1))
        // Then B stays signed in, and no expiry is reported for anyone
        #expect(await Self.outcome(of: probe, server: server) == .sessionEnded)
        #expect(try await storage.read() == Self.userB)
        #expect(expiries.count == 0)
    }

    @Test func aRefusedRefreshOfTheCurrentSessionEndsItOnceAndSaysWhich() async throws {
        struct InvalidGrant: Error {}
        let ended = Locked<[ExpiredSession]>([])
        let clock = ManualClock()
        let storage = InMemoryTokenStorage(Self.userA)
        let server = HoldingDispatcher()
        let api = server.authenticating(
            storage: storage,
            refresh: { _ in
                try await clock.sleep(for: .seconds(1))
                throw InvalidGrant()
            }, onSessionExpired: { session in ended.withLock { $0.append(session) } })
        // Given user A's request refused
        let probe = Self.me(through: api)
        await waitUntil("A's request is sent") { server.openCount == 1 }
        server.answerOldest(status: 401)
        await clock.waitForSleepers()
        // When the refresh is refused
        clock.advance(by: .seconds(1))
        // Then the session ends once, and the hook hears which one
        #expect(try await probe.failure().code == .sessionExpired)
        #expect(try await storage.read() == nil)
        #expect(ended.withLock { $0.count } == 1)
        #expect(ended.withLock { $0.first?.reason.contains("refresh failed") } == true)
    }

    /// Rotating refresh tokens, as OAuth servers issue them: each works once.
    final class RotatingTokenServer: Sendable {
        private let state = Locked((refresh: "r0", generation: 0, refreshes: 0))

        var refreshes: Int { state.withLock { $0.refreshes } }

        func refresh(_ tokens: TokenPair) throws -> TokenPair {
            try state.withLock { state in
                guard tokens.refreshToken == state.refresh else {
                    throw NetworkError(
                        code: .unacceptableStatus, message: "invalid_grant: refresh token reused")
                }
                state.generation += 1
                state.refreshes += 1
                state.refresh = "r\(state.generation)"
                return TokenPair(accessToken: "new", refreshToken: state.refresh)
            }
        }
    }

    @Test(arguments: [false, true])
    func twoPoliciesOnOneStorageShareOneRefresh(separateFileStorages: Bool) async throws {
        let clock = ManualClock()
        let tokenServer = RotatingTokenServer()
        let expiries = Counter()
        let server = AuthenticatingDispatcherTests.server(
            accepting: "new", latency: .seconds(1), clock: clock)
        // Given two API clients on one token store (one object, or two of one file)
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("errand-two-apis-\(UUID().uuidString).json")
        let first: any TokenStorage =
            separateFileStorages ? FileTokenStorage(url: url) : InMemoryTokenStorage()
        let second: any TokenStorage = separateFileStorages ? FileTokenStorage(url: url) : first
        try await first.write(TokenPair(accessToken: "old", refreshToken: "r0"))
        let apis = [first, second].map { storage in
            server.authenticating(
                storage: storage, refresh: { tokens in try tokenServer.refresh(tokens) },
                onSessionExpired: { _ in expiries.increment() })
        }
        // When 20 requests across both are refused at once
        let probes = (0..<20).map { Self.me(through: apis[$0 % 2]) }
        await clock.waitForSleepers(20)
        clock.advance(by: .seconds(1))
        await waitUntil("20 retries") { server.receivedRequests.count == 40 }
        await clock.waitForSleepers(20)
        clock.advance(by: .seconds(1))
        // Then one refresh served them all, and nobody was signed out
        for probe in probes { #expect(try await probe.first().get() == "hello new") }
        #expect(tokenServer.refreshes == 1)
        #expect(expiries.count == 0)
        #expect(try await second.read()?.refreshToken == "r1")
    }

    @Test func aRequestOfAnEndedSessionWaitingInARetryIsNotSentWithTheNextUsersToken() async throws {
        let clock = ManualClock()
        let storage = InMemoryTokenStorage(Self.userA)
        let server = HoldingDispatcher()
        let api = server.authenticating(storage: storage) { $0 }
            .retrying(
                RetryPolicy(maximumAttempts: 3, backoff: .init(base: .seconds(1), jitter: .none)),
                clock: clock)
        // Given user A's read answered 503, waiting out its backoff
        let probe = Self.me(through: api)
        await waitUntil("A's request is sent") { server.openCount == 1 }
        server.answerOldest(status: 503)
        await clock.waitForSleepers()
        // When user B signs in meanwhile
        try await storage.write(Self.userB)
        clock.advance(by: .seconds(1))
        // Then A's retry is not sent with B's token
        #expect(await Self.outcome(of: probe, server: server) == .sessionEnded)
        #expect(server.started.map { $0.headers["Authorization"] } == ["Bearer a1"])
    }
}
