import Errand
import ErrandSync
import Foundation

/// How much the peak resident memory grows over many requests, Errand beside the baseline.
///
/// Every sample runs in a fresh child process (this executable with `--workload`), which
/// sets up, warms up with a few operations, resets its peak (`/proc/self/clear_refs`), does the
/// operations, and reports `VmRSS` before and `VmHWM` and `VmRSS` after. The growth is the peak
/// after minus the resident set before. In-memory executes are compared with `JSONDecoder`
/// alone on the same bytes; URLSession requests with raw `URLSession` + `JSONDecoder`.
struct MemoryScenario: Scenario {
    let name = "memory"
    let summary = "peak RSS growth over many requests: Errand beside the same work without it (MiB)"

    /// How far Errand's median growth may exceed the baseline's before the target counts as missed:
    /// the spread seen between runs of the same workload.
    static let target = Target.noGrowthBeyondBaseline(slack: 1.0)

    func run(in context: BenchmarkContext) async throws -> ScenarioOutcome {
        var outcome = ScenarioOutcome()
        guard ProcessMemory.isAvailable else {
            outcome.skipped.append("every row: /proc/self/status is not readable (Linux only)")
            return outcome
        }
        let rounds = context.scaled(3, quick: 1)
        for count in [context.scaled(10_000, quick: 1_000), context.scaled(100_000, quick: 2_000)] {
            outcome.rows.append(
                try await compare(
                    label: "\(Format.grouped(count)) in-memory executes",
                    baseline: ("JSONDecoder alone", .decode), errand: ("execute (callback)", .inMemory),
                    count: count, rounds: rounds, context: context))
        }
        let counts = [context.scaled(2_000, quick: 100), context.scaled(20_000, quick: 200)]
        if let reason = context.serverUnavailableReason {
            outcome.skipped.append(
                counts.map { "\(Format.grouped($0)) URLSession requests" }.joined(separator: ", ")
                    + ": \(reason)")
            return outcome
        }
        for count in counts {
            outcome.rows.append(
                try await compare(
                    label: "\(Format.grouped(count)) requests · \(SoloWorkload.inFlight) in flight",
                    baseline: ("URLSession + JSONDecoder", .rawURLSession),
                    errand: ("execute (callback)", .errandURLSession), count: count, rounds: rounds,
                    context: context))
        }
        return outcome
    }

    private func compare(
        label: String, baseline: (name: String, workload: SoloWorkload.Kind),
        errand: (name: String, workload: SoloWorkload.Kind), count: Int, rounds: Int,
        context: BenchmarkContext
    ) async throws -> ResultRow {
        let reports = Locked<[SoloWorkload.Kind: [MemoryReport]]>([:])
        func contender(_ name: String, _ workload: SoloWorkload.Kind) -> Contender {
            Contender(name: name) {
                let report = try MemoryReport.measureInChildProcess(workload, count: count)
                reports.withLock { $0[workload, default: []].append(report) }
                return Sample(value: report.peakGrowthMiB)
            }
        }
        var row = try await Comparison(
            label: label, variant: errand.name, metric: .memory, target: Self.target,
            baseline: contender(baseline.name, baseline.workload),
            errand: contender(errand.name, errand.workload)
        ).measure(rounds: rounds, warmUp: false, scenario: name, progress: context.log)
        let collected = reports.withLock { $0 }
        func retained(_ workload: SoloWorkload.Kind) -> String {
            Format.number(Stats(collected[workload, default: []].map(\.retainedMiB)).median, digits: 1)
        }
        row.note =
            "resident after the run, over before: baseline \(retained(baseline.workload)) MiB, "
            + "Errand \(retained(errand.workload)) MiB"
        if !collected.values.joined().allSatisfy(\.peakWasReset) {
            row.note? += " (the peak could not be reset, so it may include the set-up)"
        }
        return row
    }
}

/// What a memory child process reports, in KiB.
struct MemoryReport: Codable, Sendable {
    let residentBefore: Int
    let peakAfter: Int
    let residentAfter: Int
    /// Whether the peak was reset before the work; if not, the peak may date from the setup.
    let peakWasReset: Bool

    var peakGrowthMiB: Double { Double(peakAfter - residentBefore) / 1_024 }
    var retainedMiB: Double { Double(residentAfter - residentBefore) / 1_024 }

    /// Runs `workload` `count` times in a child process and returns its report.
    static func measureInChildProcess(_ workload: SoloWorkload.Kind, count: Int) throws -> MemoryReport {
        let (status, data) = try ChildProcess.run(
            OwnExecutable.url(), ["--workload", workload.rawValue, String(count)])
        guard status == 0 else {
            throw BenchmarkError("the memory child for \(workload.rawValue) × \(count) exited with \(status)")
        }
        return try JSONDecoder().decode(MemoryReport.self, from: data)
    }
}
