import Errand
import ErrandPolicies
import ErrandReplay
import ErrandSync
import Foundation

/// The real chain of a scenario, built from the library's policies over a ``ChaosServer``, with
/// every clock injected, and what the policies reported on the side.
struct ChaosChain {
    /// A fixed wall-clock time: expiry, `Retry-After` dates and cache freshness never move.
    static let date = Date(timeIntervalSince1970: 1_800_000_000)

    let signal: ChaosSignal
    let clock: ChaosClock
    let server: ChaosServer
    let refresher: ChaosRefresher
    let metrics = InMemoryMetrics()
    let logLines = Locked(0)
    let sessionEnds = Locked(0)
    /// The cassette the recording layer writes, if there is one.
    let cassette: URL?
    let dispatcher: any NetworkDispatcher

    init(_ scenario: ChaosScenario, directory: URL, signal: ChaosSignal) {
        self.signal = signal
        let clock = ChaosClock(signal: signal)
        self.clock = clock
        server = ChaosServer(answers: scenario.answers, clock: clock, signal: signal)
        refresher = ChaosRefresher(script: scenario.refreshes, clock: clock, signal: signal)
        var cassette: URL?
        var dispatcher: any NetworkDispatcher = server
        for layer in scenario.layers {
            switch layer {
            case .intercepting(let failing):
                dispatcher = dispatcher.intercepted(
                    by: [ChaosInterceptor(failing: failing)], responses: [ClosureResponseInterceptor { $0 }])
            case .authenticating(let maximumRefreshes):
                let storage = InMemoryTokenStorage(
                    TokenPair(accessToken: ChaosRefresher.token(0), refreshToken: "chaos-refresh-token-zq"))
                dispatcher = dispatcher.authenticating(
                    storage: storage,
                    refresher: ClosureTokenRefresher { [refresher] in try await refresher.refresh($0) },
                    onSessionExpired: { [sessionEnds] _ in sessionEnds.withLock { $0 += 1 } },
                    maximumRefreshes: maximumRefreshes, now: { Self.date })
            case .retrying(let maximumAttempts):
                let policy = RetryPolicy(
                    maximumAttempts: maximumAttempts, backoff: .init(base: .seconds(1), jitter: .none))
                dispatcher = dispatcher.retrying(policy, clock: clock, now: { Self.date }, random: { 0.5 })
            case .queueing(let limit, let timeout):
                dispatcher = dispatcher.limitingConcurrency(
                    to: limit, defaultTimeout: timeout.map(TimeInterval.init) ?? .infinity, clock: clock)
            case .caching:
                dispatcher = dispatcher.caching(MemoryCacheStore(), now: { Self.date })
            case .logging(let level):
                dispatcher = dispatcher.logging(
                    to: ClosureLogSink { [logLines] _ in logLines.withLock { $0 += 1 } }, level: level,
                    clock: clock)
            case .measuring:
                dispatcher = dispatcher.measuring(into: metrics, clock: clock, now: { Self.date })
            case .recording:
                let file = directory.appendingPathComponent("chaos-\(String(scenario.seed, radix: 16)).har")
                cassette = file
                dispatcher = ReplayDispatcher(
                    cassette: file, mode: .recordAll, upstream: dispatcher,
                    configuration: .init {
                        $0.environment = [:]
                        $0.allowsRecordingOnCI = true
                        $0.now = { Self.date }
                    })
            }
        }
        self.cassette = cassette
        self.dispatcher = dispatcher
    }

    /// The request a call sends.
    static func request(for call: ChaosScenario.Call) -> RequestData {
        call.method == .get
            ? .get("https://api.example.test/items/1")
            : .post("https://api.example.test/orders").body(.json(["name": "chaos"]))
    }
}

/// Adds a header after a suspension, or fails every request.
struct ChaosInterceptor: RequestInterceptor {
    struct Refused: Error {}

    let failing: Bool

    func intercept(_ request: RequestData) async throws -> RequestData {
        await Task.yield()
        if failing { throw Refused() }
        return request.header("X-Chaos", "1")
    }
}
