import Foundation

/// One benchmark scenario: a baseline and Errand doing the same work, measured in one run.
///
/// A new scenario is one file with a type conforming to this protocol, plus its line in
/// ``ScenarioRegistry/all``.
protocol Scenario: Sendable {
    /// The name `--only` takes, such as `transport`.
    var name: String { get }
    /// One line: what is compared with what.
    var summary: String { get }
    /// Measures, and says which parts could not run here and why.
    func run(in context: BenchmarkContext) async throws -> ScenarioOutcome
}

/// What a scenario measured, and what it skipped.
struct ScenarioOutcome: Sendable {
    var rows: [ResultRow] = []
    /// Parts not measured, each with the reason.
    var skipped: [String] = []
}

/// Every scenario, in report order.
enum ScenarioRegistry {
    static let all: [any Scenario] = [
        TransportScenario(),
        FullStackScenario(),
        FlightRecorderScenario(),
        InMemoryScenario(),
        CacheHitScenario(),
        DIScenario(),
        ReplayScenario(),
        MemoryScenario(),
    ]

    /// Scenarios of the benchmark issue whose code does not exist yet, and what they wait for.
    static let planned: [(name: String, waitsFor: String)] = []

    /// The scenarios `--only` names, in report order.
    static func selected(by names: [String]?) throws -> [any Scenario] {
        guard let names else { return all }
        for name in names where !all.contains(where: { $0.name == name }) {
            if let planned = planned.first(where: { $0.name == name }) {
                throw BenchmarkError(
                    "the \(name) scenario waits for \(planned.waitsFor), which do not exist yet")
            }
            throw BenchmarkError(
                "no scenario named \"\(name)\"; known: \(all.map(\.name).joined(separator: ", "))")
        }
        return all.filter { names.contains($0.name) }
    }
}

/// What every scenario gets: the mode, the payloads, the server, and where to log progress.
struct BenchmarkContext: Sendable {
    /// The environment variable that holds the loopback server's base URL.
    static let serverVariable = "ERRAND_BENCH_URL"

    let quick: Bool
    let payloads: Payloads
    /// The base URL of a server that serves the payload files, when there is one.
    let serverURL: URL?
    /// Rounds asked for on the command line (`--rounds`), or `nil` for the mode's default.
    var requestedRounds: Int?

    /// The number of A/B rounds for each comparison.
    var rounds: Int { requestedRounds ?? (quick ? 2 : 7) }

    /// Fewer rounds, for comparisons read beside a main one rather than judged on their own.
    var secondaryRounds: Int { quick ? 1 : 3 }

    /// `full` normally, `quick` under `--quick`.
    func scaled(_ full: Int, quick: Int) -> Int {
        self.quick ? quick : full
    }

    /// Why scenarios that need the server cannot run, or `nil` when it is there.
    var serverUnavailableReason: String? {
        serverURL == nil
            ? "\(Self.serverVariable) is not set (scripts/bench starts nginx and sets it)" : nil
    }

    /// Progress for the person watching, on standard error so standard output stays the report.
    ///
    /// Standard output is flushed first: written to a file it is buffered, and a line on
    /// standard error would land inside a table of the report when both go to one log.
    func log(_ line: String) {
        fflush(nil)
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
