import Errand
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
        let bytes = context.payloads.bytes(for: type)
        let expected = try context.payloads.checksum(of: type) * operations

        let decodeOnly = Contender(name: "JSONDecoder") {
            let decoder = JSONDecoder()
            let stopwatch = Stopwatch()
            var sum = 0
            for _ in 0..<operations { sum &+= try decoder.decode(Payload.self, from: bytes).checksum }
            return try InMemoryScenario.sample(stopwatch, operations, sum, expected)
        }
        let callback = Contender(name: "cached execute (callback)") {
            let dispatcher = try await Self.primedCache(serving: bytes, for: Payload.self)
            let request = GetPayload<Payload>()
            let tally = Tally()
            let stopwatch = Stopwatch()
            for _ in 0..<operations {
                request.execute(
                    dispatcher: dispatcher, callbackQueue: nil, onSuccess: { tally.add($0.checksum) },
                    onError: { tally.fail($0) })
            }
            return try InMemoryScenario.sample(stopwatch, operations, try tally.sum(), expected)
        }
        let async = Contender(name: "cached execute (async)") {
            let dispatcher = try await Self.primedCache(serving: bytes, for: Payload.self)
            let request = GetPayload<Payload>()
            let stopwatch = Stopwatch()
            var sum = 0
            for _ in 0..<operations { sum &+= try await request.execute(dispatcher: dispatcher).checksum }
            return try InMemoryScenario.sample(stopwatch, operations, sum, expected)
        }

        var rows: [ResultRow] = []
        for errand in [callback, async] {
            let comparison = Comparison(
                label: Payload.label, variant: errand.name, metric: .time, target: target,
                baseline: decodeOnly, errand: errand)
            rows.append(
                try await comparison.measure(rounds: context.rounds, scenario: name, progress: context.log))
        }
        return rows
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
