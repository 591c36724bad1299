import Errand
import ErrandPolicies
import Foundation

/// Raw `URLSession` + `JSONDecoder` against `URLSessionDispatcher` wrapped in the policies an app
/// would stack on it, over loopback, in the same cells as the transport scenario.
///
/// The stack is the README's order: interceptors (a user agent) around the transport, auth around
/// them (a token in storage, so no refresh ever runs), retry around auth (no request fails, so
/// none is retried), the HTTP cache around retry with a store of zero bytes, so every request
/// is a miss: the lookup, the storability check and the refused store are paid each time, and
/// the wire bytes stay those of the baseline. (A store with room would answer from itself: the
/// nginx payloads carry `Last-Modified`, which makes them heuristically fresh for a while.)
/// The baseline sends the same `Authorization` and `User-Agent` headers, so
/// both sides put the same bytes on the wire and the ratio is the cost of the policies.
///
/// Logging at level none and metrics (into an ``InMemoryMetrics``) sit between the interceptors
/// and auth, and a queue of 64 is outermost.
struct FullStackScenario: Scenario {
    let name = "full-stack"
    let summary =
        "raw URLSession + JSONDecoder vs URLSessionDispatcher + interceptors + logging (none) + metrics "
        + "+ auth + retry + HTTP cache (a miss each time) + queue of 64 (req/s)"

    static let target = Target.ratioAtLeast(0.95)
    static let userAgent = "ErrandBenchmarks/1.0"
    static let accessToken = "benchmark-access-token"

    func run(in context: BenchmarkContext) async throws -> ScenarioOutcome {
        guard let serverURL = context.serverURL else {
            return ScenarioOutcome(skipped: ["every cell: \(context.serverUnavailableReason ?? "")"])
        }
        let raw = RawClient(
            baseURL: serverURL,
            headers: [("Authorization", "Bearer \(Self.accessToken)"), ("User-Agent", Self.userAgent)])
        try await LoopbackCells.checkServer(raw, serves: context.payloads)
        let cells = LoopbackCells(
            scenario: name, target: Self.target, raw: raw,
            dispatcher: Self.stack(over: URLSessionDispatcher(baseURL: serverURL)))
        return ScenarioOutcome(rows: try await cells.measure(in: context))
    }

    /// The policies around `transport`, innermost first.
    static func stack(over transport: some NetworkDispatcher) -> any NetworkDispatcher {
        let storage = InMemoryTokenStorage(TokenPair(accessToken: accessToken))
        return
            transport
            .intercepted(by: [UserAgentInterceptor(userAgent)])
            .logging(to: ClosureLogSink { _ in }, level: .none)
            .measuring(into: InMemoryMetrics())
            .authenticating(
                storage: storage,
                refresh: { _ in
                    throw BenchmarkError("the full-stack token never expires, so no refresh should run")
                }
            )
            .retrying(.default)
            // The HTTP cache, with no room, so each request is a miss.
            .caching(MemoryCacheStore(byteLimit: 0))
            .limitingConcurrency(to: 64)
    }
}
