import Errand
import ErrandSync
import Foundation

/// `execute` on an `InMemoryDispatcher` against `JSONDecoder` alone on the same bytes.
///
/// What the ratio shows is everything Errand does around the decode: building the request,
/// matching the stub, validating the status, delivering exactly once. Each sample uses a fresh
/// dispatcher, so requests recorded in one sample do not weigh on the next.
struct InMemoryScenario: Scenario {
    let name = "in-memory"
    let summary = "execute on InMemoryDispatcher vs JSONDecoder alone on the same bytes (µs per op)"

    func run(in context: BenchmarkContext) async throws -> ScenarioOutcome {
        var outcome = ScenarioOutcome()
        outcome.rows += try await compare(
            User.self, operations: context.scaled(20_000, quick: 300), target: .ratioAtMost(1.25),
            context: context)
        outcome.rows += try await compare(
            ProductList.self, operations: context.scaled(300, quick: 10), target: .ratioAtMost(1.03),
            context: context)
        return outcome
    }

    private func compare<Payload: BenchmarkPayload>(
        _ type: Payload.Type, operations: Int, target: Target, context: BenchmarkContext
    ) async throws -> [ResultRow] {
        try await Self.compareWithDecoder(
            type, operations: operations, target: target, scenario: name, variant: "execute",
            context: context
        ) { bytes in Self.dispatcher(serving: bytes, at: Payload.path) }
    }

    /// `execute` through a fresh dispatcher from `makeDispatcher`, callback and async, each
    /// against `JSONDecoder` alone on the same bytes, in alternating rounds.
    ///
    /// - Parameters:
    ///   - variant: How the Errand side is named in the report, before `(callback)` or `(async)`.
    ///   - makeDispatcher: A dispatcher answering `Payload.path` with the bytes it is given,
    ///     made anew for each sample.
    static func compareWithDecoder<Payload: BenchmarkPayload>(
        _ type: Payload.Type, operations: Int, target: Target, scenario: String, variant: String,
        context: BenchmarkContext,
        makeDispatcher: @escaping @Sendable (Data) async throws -> any NetworkDispatcher
    ) async throws -> [ResultRow] {
        let bytes = context.payloads.bytes(for: type)
        let expected = try context.payloads.checksum(of: type) * operations

        let decodeOnly = Contender(name: "JSONDecoder") {
            let decoder = JSONDecoder()
            let stopwatch = Stopwatch()
            var sum = 0
            for _ in 0..<operations { sum &+= try decoder.decode(Payload.self, from: bytes).checksum }
            return try sample(stopwatch, operations, sum, expected)
        }
        let callback = Contender(name: "\(variant) (callback)") {
            let dispatcher = try await makeDispatcher(bytes)
            let request = GetPayload<Payload>()
            let tally = Tally()
            let stopwatch = Stopwatch()
            for _ in 0..<operations {
                request.execute(
                    dispatcher: dispatcher, callbackQueue: nil, onSuccess: { tally.add($0.checksum) },
                    onError: { tally.fail($0) })
            }
            return try sample(stopwatch, operations, try tally.sum(), expected)
        }
        let async = Contender(name: "\(variant) (async)") {
            let dispatcher = try await makeDispatcher(bytes)
            let request = GetPayload<Payload>()
            let stopwatch = Stopwatch()
            var sum = 0
            for _ in 0..<operations { sum &+= try await request.execute(dispatcher: dispatcher).checksum }
            return try sample(stopwatch, operations, sum, expected)
        }

        var rows: [ResultRow] = []
        for errand in [callback, async] {
            let comparison = Comparison(
                label: Payload.label, variant: errand.name, metric: .time, target: target,
                baseline: decodeOnly, errand: errand)
            rows.append(
                try await comparison.measure(
                    rounds: context.rounds, scenario: scenario, progress: context.log))
        }
        return rows
    }

    /// A dispatcher serving `bytes`, keeping no request history (it would only grow over a run).
    static func dispatcher(serving bytes: Data, at path: String) -> InMemoryDispatcher {
        let dispatcher = InMemoryDispatcher(recordsRequests: false)
        dispatcher.stub(.get, path, response: .data(bytes, contentType: "application/json"))
        return dispatcher
    }

    /// Wall and CPU µs per operation, once the decoded values are checked.
    static func sample(_ stopwatch: Stopwatch, _ operations: Int, _ sum: Int, _ expected: Int)
        throws -> Sample
    {
        let wall = stopwatch.elapsed.seconds * 1e6 / Double(operations)
        let cpu = stopwatch.cpuMicroseconds(per: operations)
        guard sum == expected else {
            throw BenchmarkError("the decoded values add up to \(sum), not \(expected)")
        }
        return Sample(value: wall, cpuPerOperation: cpu)
    }
}

/// Adds up checksums delivered to callbacks, and keeps the first error.
final class Tally: Sendable {
    private let state = Locked<(sum: Int, error: NetworkError?)>((0, nil))

    func add(_ checksum: Int) {
        state.withLock { $0.sum &+= checksum }
    }

    func fail(_ error: NetworkError) {
        state.withLock { $0.error = $0.error ?? error }
    }

    /// The sum so far.
    ///
    /// - Throws: The first error delivered, if any.
    func sum() throws -> Int {
        let (sum, error) = state.withLock { ($0.sum, $0.error) }
        if let error { throw error }
        return sum
    }
}
