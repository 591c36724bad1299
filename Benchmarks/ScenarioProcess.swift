import Foundation

/// Runs one scenario in a child process of its own and reads back what it measured.
///
/// A scenario leaves its process changed: the sessions it made and their threads, Dispatch's
/// pool, the heap. So when several scenarios are selected, each runs in a fresh process, as it
/// would alone, and nothing one leaves behind can weigh on the next (Benchmarks/README.md tells
/// the runs that raised the question); `ERRAND_BENCH_ONE_PROCESS=1` runs them all in this one.
enum ScenarioProcess {
    static let oneProcessVariable = "ERRAND_BENCH_ONE_PROCESS"

    /// Whether the selected scenarios each get a process of their own.
    static func isolates(_ scenarios: [any Scenario]) -> Bool {
        scenarios.count > 1 && ProcessInfo.processInfo.environment[oneProcessVariable] != "1"
    }

    /// Runs `scenario` as `ErrandBenchmarks --only <name>` with this run's mode and rounds.
    ///
    /// The child's progress goes to this process's standard error as it comes; its report is
    /// read from a JSON file, its table discarded.
    static func run(_ scenario: any Scenario, quick: Bool, rounds: Int?) throws -> ScenarioOutcome {
        let name = "errand-bench-\(ProcessInfo.processInfo.processIdentifier)-\(scenario.name).json"
        let path = FileManager.default.temporaryDirectory.appending(path: name).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var arguments = ["--only", scenario.name, "--json", path]
        if quick { arguments.append("--quick") }
        if let rounds { arguments += ["--rounds", String(rounds)] }

        let (status, _) = try ChildProcess.run(OwnExecutable.url(), arguments, captures: false)
        guard status == 0 else {
            throw BenchmarkError("the scenario \(scenario.name) exited with \(status)")
        }
        let report = try RunComparison.load(path)
        return ScenarioOutcome(rows: report.rows, skipped: report.skipped.map(\.reason))
    }
}
