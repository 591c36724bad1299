import ErrandDI
import Foundation

/// `ErrandDI` resolves against the code an app would write without a container, in ns per resolve.
///
/// There is no library to compare with, so the baseline is hand-written: a `static let` read
/// through a function the optimiser does not inline (what a hand-rolled singleton costs), and
/// direct initialisers of the same types (what a unique value costs without a container). The
/// targets of the benchmark issue are absolute (ns per resolve), so the report gives the ratio
/// for context and judges the Errand figure alone.
///
/// `DI.current` is measured before the override row binds the first task container, as in an
/// app, where only tests bind one: until then `DI.current` skips the task-local lookup.
///
/// Every resolved object is handed to a ``DISink``, which stores it in a class property and adds
/// up a checksum read from the object graph: the objects escape, so neither side's allocations
/// can be removed or moved to the stack, and the sum proves each resolve produced the right graph.
struct DIScenario: Scenario {
    let name = "di"
    let summary =
        "ErrandDI resolve vs hand-written code (a static let read, a direct init), ns per resolve"

    func run(in context: BenchmarkContext) async throws -> ScenarioOutcome {
        let container = DIGraph.container()
        DI.configure(name: "Benchmarks") { DIGraph.register(in: $0) }
        let singletons = context.scaled(2_000_000, quick: 10_000)
        let uniques = context.scaled(1_000_000, quick: 10_000)
        let graphs = context.scaled(300_000, quick: 5_000)

        let readLet = Contender(name: "static let, opaque read") {
            try Self.sample(count: singletons, checksum: DIGraph.clientID) { count, sink in
                DIBaseline.readClient(count, into: sink)
            }
        }
        let inject = Contender(name: "@Inject") {
            try Self.sample(count: singletons, checksum: DIGraph.clientID) { count, sink in
                DIGraph.injectClient(count, into: sink)
            }
        }
        let comparisons = [
            Comparison(
                label: "cached singleton", variant: "container.resolve", metric: .nanoseconds,
                target: .atMost(100, .nanoseconds), baseline: readLet,
                errand: Contender(name: "container.resolve") {
                    try Self.sample(count: singletons, checksum: DIGraph.clientID) { count, sink in
                        DIGraph.resolveClient(from: container, count, into: sink)
                    }
                }),
            Comparison(
                label: "cached singleton", variant: "@Inject", metric: .nanoseconds,
                target: .atMost(60, .nanoseconds), baseline: readLet,
                errand: inject),
            Comparison(
                label: "cached singleton, made at run time", variant: "@Inject", metric: .nanoseconds,
                target: nil,
                baseline: Contender(name: "static let made at run time") {
                    try Self.sample(count: singletons, checksum: DIGraph.clientID) { count, sink in
                        DIBaseline.readClientMadeAtRunTime(count, into: sink)
                    }
                },
                errand: inject),
            Comparison(
                label: "cached singleton", variant: "DI.current.resolve", metric: .nanoseconds,
                target: nil, baseline: readLet,
                errand: Contender(name: "DI.current.resolve") {
                    try Self.sample(count: singletons, checksum: DIGraph.clientID) { count, sink in
                        DIGraph.resolveCurrentClient(count, into: sink)
                    }
                }),
            Comparison(
                label: "cached singleton, test override active",
                variant: "DI.current.resolve in withOverrides",
                metric: .nanoseconds, target: nil,
                baseline: Contender(name: "static let, opaque read") {
                    try Self.sample(count: singletons, checksum: DIGraph.overrideID) { count, sink in
                        DIBaseline.readOverride(count, into: sink)
                    }
                },
                errand: Contender(name: "DI.current.resolve in withOverrides") {
                    try Self.sample(count: singletons, checksum: DIGraph.overrideID) { count, sink in
                        DIGraph.resolveOverriddenClient(count, into: sink)
                    }
                }),
            Comparison(
                label: "unique value, one dependency", variant: "container.resolve", metric: .nanoseconds,
                target: .atMost(250, .nanoseconds),
                baseline: Contender(name: "direct init") {
                    try Self.sample(count: uniques, checksum: DIGraph.repositoryChecksum) { count, sink in
                        DIBaseline.makeRepository(count, into: sink)
                    }
                },
                errand: Contender(name: "container.resolve") {
                    try Self.sample(count: uniques, checksum: DIGraph.repositoryChecksum) { count, sink in
                        DIGraph.resolveRepository(from: container, count, into: sink)
                    }
                }),
            Comparison(
                label: "five-level graph, all unique", variant: "container.resolve", metric: .nanoseconds,
                target: nil,
                baseline: Contender(name: "direct init") {
                    try Self.sample(count: graphs, checksum: DIGraph.levelChecksum) { count, sink in
                        DIBaseline.makeLevels(count, into: sink)
                    }
                },
                errand: Contender(name: "container.resolve") {
                    try Self.sample(count: graphs, checksum: DIGraph.levelChecksum) { count, sink in
                        DIGraph.resolveLevels(from: container, count, into: sink)
                    }
                }),
        ]
        var outcome = ScenarioOutcome()
        for comparison in comparisons {
            outcome.rows.append(
                try await comparison.measure(rounds: context.rounds, scenario: name, progress: context.log))
        }
        return outcome
    }

    /// Runs `loop` `count` times into a fresh sink and returns ns per operation, once the
    /// checksum shows every operation produced the expected graph.
    private static func sample(count: Int, checksum: Int, _ loop: (Int, DISink) -> Void) throws -> Sample {
        let sink = DISink()
        let stopwatch = Stopwatch()
        loop(count, sink)
        let nanoseconds = stopwatch.elapsed.seconds * 1e9 / Double(count)
        guard sink.sum == checksum * count, sink.last != nil else {
            throw BenchmarkError("the resolved graphs add up to \(sink.sum), not \(checksum * count)")
        }
        return Sample(value: nanoseconds)
    }
}

/// Keeps the last object it was given and adds up checksums: what makes each resolve observable.
final class DISink {
    private(set) var last: AnyObject?
    private(set) var sum = 0

    /// Keeps `object`, so it escapes, and adds its checksum.
    @inline(never)
    func keep(_ object: AnyObject, checksum: Int) {
        last = object
        sum &+= checksum
    }
}
