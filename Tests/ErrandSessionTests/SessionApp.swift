import Errand
import ErrandPolicies
import ErrandState
import ErrandSync
import ErrandTestSupport
import Foundation

/// An app as a scenario wires it: one or two API stacks over one token store, each with a random
/// arrangement of cache, coalescer, retry and queue around its auth policy, and an `AuthState`.
@MainActor final class SessionApp {
    /// A policy a stack may have, outside or inside its auth policy.
    enum Layer: String, CaseIterable {
        case cache, coalescer, retry, queue
    }

    /// The response type the refresh and sign-in endpoints answer with.
    struct Tokens: Decodable, Sendable {
        let access: String
        let refresh: String

        var pair: TokenPair { TokenPair(accessToken: access, refreshToken: refresh) }
    }

    let server = SessionServer()
    let clock = ManualClock()
    /// The wall-clock time the caches see; advanced with `clock`.
    let wallClock = Locked(Date(timeIntervalSince1970: 1_800_000_000))
    let auth: AuthState
    /// The stacks, and how each is arranged, for a failure's description.
    private(set) var stacks: [(dispatcher: any NetworkDispatcher, layout: String)] = []
    private(set) var caches: [CachingDispatcher] = []
    /// Every auth event, in order.
    let events = Locked<[AuthEvent]>([])
    private let tokenFile: URL?
    private var listening: Task<Void, Never>?

    init(using random: inout SplitMix64, directory: URL) throws {
        // Two API clients on one token file, or on one storage object
        let storages: [any TokenStorage]
        let stackCount = random.chance(30) ? 2 : 1
        if random.chance(10) {
            let file = directory.appendingPathComponent("tokens-\(UUID().uuidString).json")
            storages = (0..<stackCount).map { _ in FileTokenStorage(url: file) }
            self.tokenFile = file
        } else {
            let storage = InMemoryTokenStorage()
            storages = Array(repeating: storage, count: stackCount)
            self.tokenFile = nil
        }
        let clearsCaches = random.chance(50)
        let caches = Locked<[CachingDispatcher]>([])
        auth = AuthState(
            storage: storages[0],
            alsoClear: clearsCaches
                ? { @Sendable in for cache in caches.withLock({ $0 }) { cache.clear() } } : nil)
        for storage in storages {
            stacks.append(build(over: storage, using: &random))
        }
        caches.withLock { $0 = self.caches }
        let events = events
        let stream = auth.events()
        listening = Task { for await event in stream { events.withLock { $0.append(event) } } }
        if !clearsCaches { stacks[0].layout += " (the caches are not cleared on sign-out)" }
    }

    /// Stops listening for events and removes the token file, if any.
    func close() {
        listening?.cancel()
        if let tokenFile { try? FileManager.default.removeItem(at: tokenFile) }
    }

    /// Moves both clocks on by `duration`.
    func advance(by duration: Duration) {
        wallClock.withLock { $0 += TimeInterval(duration.components.seconds) }
        clock.advance(by: duration)
    }

    private func build(over storage: any TokenStorage, using random: inout SplitMix64)
        -> (dispatcher: any NetworkDispatcher, layout: String)
    {
        let inner = [Layer.cache, .coalescer].filter { _ in random.chance(25) }
        let outer = Layer.allCases.filter { _ in random.chance(40) }.shuffled(using: &random)
        var dispatcher: any NetworkDispatcher = server
        for layer in inner { dispatcher = wrap(dispatcher, in: layer) }
        let transport = dispatcher
        let handler = auth.sessionExpiredHandler
        dispatcher = dispatcher.authenticating(
            storage: storage,
            refresh: { tokens in
                let refresh = RequestData.post("/token").header("X-Refresh", tokens.refreshToken ?? "")
                    .authentication(.none)
                return try await Request<Tokens>(refresh).execute(dispatcher: transport).pair
            }, onSessionExpired: handler, maximumRefreshes: 1_000)
        for layer in outer { dispatcher = wrap(dispatcher, in: layer) }
        let layout = (outer.reversed().map(\.rawValue) + ["auth"] + inner.reversed().map(\.rawValue))
            .joined(separator: " > ")
        return (dispatcher, layout)
    }

    private func wrap(_ dispatcher: any NetworkDispatcher, in layer: Layer) -> any NetworkDispatcher {
        switch layer {
        case .cache:
            let wallClock = wallClock
            let cache = dispatcher.caching(MemoryCacheStore(), now: { wallClock.withLock { $0 } })
            caches.append(cache)
            return cache
        case .coalescer:
            return dispatcher.coalescingIdenticalRequests(clock: clock)
        case .retry:
            return dispatcher.retrying(
                RetryPolicy(maximumAttempts: 2), clock: clock,
                now: { [wallClock] in wallClock.withLock { $0 } },
                random: { 0.5 })
        case .queue:
            return dispatcher.limitingConcurrency(to: 2, clock: clock)
        }
    }
}
