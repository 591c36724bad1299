import Errand
import ErrandPolicies
import Foundation

/// `execute` answered by a fresh response in the HTTP cache against `JSONDecoder` alone on the
/// same bytes.
///
/// Modelled on the in-memory scenario: the cache wraps an `InMemoryDispatcher` whose stub says
/// `Cache-Control: max-age` of a year, and one request before the stopwatch stores it, so every
/// measured request is a hit that never reaches the dispatcher beneath. What the ratio shows is
/// the cache's lookup (key, store, `Vary`, freshness from the stored headers) plus what
/// `execute` does around the decode.
struct CacheHitScenario: Scenario {
    let name = "cache-hit"
    let summary =
        "execute answered by a fresh cached response vs JSONDecoder alone on the same bytes (µs per op)"

    func run(in context: BenchmarkContext) async throws -> ScenarioOutcome {
        var outcome = ScenarioOutcome()
        outcome.rows += try await compare(
            User.self, operations: context.scaled(20_000, quick: 300), target: .ratioAtMost(1.5),
            context: context)
        outcome.rows += try await compare(
            ProductList.self, operations: context.scaled(300, quick: 10), target: .ratioAtMost(1.05),
            context: context)
        return outcome
    }

    private func compare<Payload: BenchmarkPayload>(
        _ type: Payload.Type, operations: Int, target: Target, context: BenchmarkContext
    ) async throws -> [ResultRow] {
        try await InMemoryScenario.compareWithDecoder(
            type, operations: operations, target: target, scenario: name, variant: "cached execute",
            context: context
        ) { bytes in try await Self.primedCache(serving: bytes, for: Payload.self) }
    }

    /// An empty cache over an in-memory dispatcher serving `bytes` fresh for a year.
    static func cache<Payload: BenchmarkPayload>(serving bytes: Data, for type: Payload.Type)
        -> CachingDispatcher
    {
        let server = InMemoryDispatcher(recordsRequests: false)
        server.stub(
            .get, Payload.path,
            response: .status(
                200, headers: ["Content-Type": "application/json", "Cache-Control": "max-age=31536000"],
                body: bytes))
        return server.caching(MemoryCacheStore())
    }

    /// A cache over an in-memory dispatcher serving `bytes` fresh for a year, already holding them.
    ///
    /// - Throws: `BenchmarkError` when the second request is not a hit.
    static func primedCache<Payload: BenchmarkPayload>(serving bytes: Data, for type: Payload.Type)
        async throws -> CachingDispatcher
    {
        let cache = cache(serving: bytes, for: type)
        _ = try await GetPayload<Payload>().executeWithResponse(dispatcher: cache)
        guard
            try await GetPayload<Payload>().executeWithResponse(dispatcher: cache).response.cacheStatus
                == .hit
        else {
            throw BenchmarkError("the cache-hit scenario's second request was not answered by the cache")
        }
        return cache
    }
}
