import Foundation

/// `swift run -c release ErrandBenchmarks [--quick] [--only …] [--json …]`; see `Options.usage`.
@main
struct ErrandBenchmarks {
    static func main() async {
        guard ChildProcess.isSupported else {
            print("ErrandBenchmarks runs on macOS and Linux only.")
            return
        }
        do {
            try await run(Options.parse(Array(CommandLine.arguments.dropFirst())))
        } catch {
            FileHandle.standardError.write(Data("ErrandBenchmarks: error: \(error)\n".utf8))
            exit(1)
        }
    }

    private static func run(_ options: Options) async throws {
        if options.help {
            print(Options.usage)
            return
        }
        if options.list {
            for scenario in ScenarioRegistry.all { print("\(scenario.name): \(scenario.summary)") }
            for planned in ScenarioRegistry.planned {
                print("\(planned.name): not built yet (waits for \(planned.waitsFor))")
            }
            return
        }
        if options.selfTest {
            try RunComparison.selfTest()
            print("ErrandBenchmarks: self-test passed")
            return
        }
        if let compare = options.compare, let new = compare.new {
            print(try RunComparison.run(oldPath: compare.old, newPath: new))
            return
        }
        if let compare = options.compare {
            // Before the run, so a wrong path fails at once rather than after it.
            _ = try RunComparison.load(compare.old)
        }
        let payloads = try Payloads.make()
        if let directory = options.payloadDirectory {
            try payloads.write(to: URL(fileURLWithPath: directory))
            return
        }
        let context = BenchmarkContext(
            quick: options.quick, payloads: payloads, serverURL: try serverURL(),
            requestedRounds: options.rounds)
        if let workload = options.workload {
            try await SoloWorkload.runAlone(
                kind: workload.kind, count: workload.count, payload: workload.payload, context: context)
            return
        }

        let scenarios = try ScenarioRegistry.selected(by: options.only)
        var report = Report(
            date: ISO8601DateFormatter().string(from: Date()), quick: options.quick,
            command: CommandLine.arguments.dropFirst().joined(separator: " "), machine: .current(),
            server: context.serverURL?.absoluteString,
            pinning: ProcessInfo.processInfo.environment["ERRAND_BENCH_PINNING"])
        if options.only == nil {
            report.notYetBuilt = ScenarioRegistry.planned.map {
                Report.Skip(scenario: $0.name, reason: $0.waitsFor)
            }
        }
        let isolated = ScenarioProcess.isolates(scenarios)
        for scenario in scenarios {
            let outcome: ScenarioOutcome
            if isolated {
                // The child logs its own progress and what it skipped.
                outcome = try ScenarioProcess.run(scenario, quick: options.quick, rounds: options.rounds)
            } else {
                context.log("== \(scenario.name): \(scenario.summary)")
                outcome = try await scenario.run(in: context)
                for skip in outcome.skipped { context.log("\(scenario.name): skipped \(skip)") }
            }
            report.rows += outcome.rows
            report.skipped += outcome.skipped.map { Report.Skip(scenario: scenario.name, reason: $0) }
        }

        let summaries = Dictionary(uniqueKeysWithValues: scenarios.map { ($0.name, $0.summary) })
        print(report.table(summaries: summaries))
        if let path = options.jsonPath {
            try report.writeJSON(to: path)
            context.log("figures written to \(path)")
        }
        if let compare = options.compare {
            // Read back from a file, so the comparison sees exactly what --json would keep.
            let path =
                options.jsonPath
                ?? FileManager.default.temporaryDirectory
                .appending(path: "errand-bench-\(ProcessInfo.processInfo.processIdentifier).json").path
            if options.jsonPath == nil { try report.writeJSON(to: path) }
            defer { if options.jsonPath == nil { try? FileManager.default.removeItem(atPath: path) } }
            print("")
            print(try RunComparison.run(oldPath: compare.old, newPath: path))
        }
    }

    /// The server's base URL from the environment; a malformed one is an error, not a skip.
    private static func serverURL() throws -> URL? {
        guard let value = ProcessInfo.processInfo.environment[BenchmarkContext.serverVariable],
            !value.isEmpty
        else { return nil }
        guard let url = URL(string: value), url.scheme != nil, url.host != nil else {
            throw BenchmarkError("\(BenchmarkContext.serverVariable)=\(value) is not a URL")
        }
        return url
    }
}
