import Foundation

/// `swift run -c release ErrandBenchmarks [--quick] [--only …] [--json …]`; see `Options.usage`.
@main
struct ErrandBenchmarks {
    static func main() async {
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
        let payloads = try Payloads.make()
        if let directory = options.payloadDirectory {
            try payloads.write(to: URL(fileURLWithPath: directory))
            return
        }
        let context = BenchmarkContext(quick: options.quick, payloads: payloads, serverURL: try serverURL())
        if let workload = options.workload {
            try await SoloWorkload.runAlone(
                kind: workload.kind, count: workload.count, payload: workload.payload, context: context)
            return
        }

        let scenarios = try ScenarioRegistry.selected(by: options.only)
        var report = Report(
            date: ISO8601DateFormatter().string(from: Date()), quick: options.quick,
            command: CommandLine.arguments.dropFirst().joined(separator: " "), machine: .current(),
            server: context.serverURL?.absoluteString)
        if options.only == nil {
            report.notYetBuilt = ScenarioRegistry.planned.map {
                Report.Skip(scenario: $0.name, reason: $0.waitsFor)
            }
        }
        for scenario in scenarios {
            context.log("== \(scenario.name): \(scenario.summary)")
            let outcome = try await scenario.run(in: context)
            report.rows += outcome.rows
            report.skipped += outcome.skipped.map { Report.Skip(scenario: scenario.name, reason: $0) }
            for skip in outcome.skipped { context.log("\(scenario.name): skipped \(skip)") }
        }

        let summaries = Dictionary(uniqueKeysWithValues: scenarios.map { ($0.name, $0.summary) })
        print(report.table(summaries: summaries))
        if let path = options.jsonPath {
            try report.writeJSON(to: path)
            context.log("figures written to \(path)")
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
