import Foundation

/// `ErrandBenchmarks --self-test`: checks of the run comparison on made-up reports, and of
/// reading the cores the benchmark may use.
///
/// The benchmark is an executable, which test targets cannot import, so its one piece of logic
/// that judges figures checks itself; `scripts/bench --quick` (and so CI) runs it first.
extension RunComparison {
    /// Runs every check; throws the list of failures.
    static func selfTest() throws {
        var failures: [String] = []
        func check(_ condition: Bool, _ what: String) {
            if !condition { failures.append(what) }
        }

        // The rule on ranges, both directions, and touching ranges (which overlap).
        let low = Stats([10, 11, 12])
        let high = Stats([13, 14, 15])
        check(
            verdict(old: low, new: high, higherIsBetter: true) == .better,
            "higher req/s beyond spread is better")
        check(
            verdict(old: low, new: high, higherIsBetter: false) == .worse, "higher µs beyond spread is worse")
        check(
            verdict(old: high, new: low, higherIsBetter: false) == .better, "lower µs beyond spread is better"
        )
        check(
            verdict(old: low, new: Stats([12, 20, 30]), higherIsBetter: true) == .unchanged,
            "ranges that touch are within the spread, whatever the medians")
        check(
            verdict(old: Stats([10, 20]), new: Stats([12, 14]), higherIsBetter: true) == .unchanged,
            "a range inside the other is within the spread")

        check(
            verdict(old: Stats([12.30]), new: Stats([12.34]), higherIsBetter: false) == .unchanged,
            "a change of the median within 1% is not a move, even between ranges of one point")
        check(
            verdict(old: Stats([12.0]), new: Stats([12.5]), higherIsBetter: false) == .worse,
            "a 4% change between ranges of one point is")

        // The affinity mask that says whether decoding in parallel can be judged.
        check(UsableCores.count(ofMask: "\t00000000,00000003") == 2, "a mask of two cores counts 2")
        check(UsableCores.count(ofMask: "1") == 1, "a mask of one core counts 1")
        check(UsableCores.count(ofMask: "ff,x0") == nil, "a mask with a non-hex digit is not read")
        check(UsableCores.count(ofMask: "0") == nil, "an empty mask is not read")

        // The sides take turns at sampling first, so neither always runs after the other.
        check(
            (0..<6).map(Comparison.baselineFirst(inRound:)) == [true, false, true, false, true, false],
            "the baseline samples first in even rounds only")

        // Rows matched by scenario, case, variant and baseline; every figure of a pair judged.
        let old = report(rows: [
            row(
                baseline: "raw", errand: [900, 950, 1_000], ratio: [0.90, 0.95, 0.97],
                cpuRatio: [1.20, 1.25, 1.30]),
            row(
                baseline: "shared", errand: [900, 950, 1_000], ratio: [0.90, 0.95, 0.97],
                cpuRatio: [1.0, 1.1, 1.2]),
            row(label: "gone", baseline: "raw", errand: [1], ratio: [1], cpuRatio: [1]),
        ])
        let new = report(rows: [
            row(
                baseline: "raw", errand: [1_100, 1_150, 1_200], ratio: [0.96, 0.99, 1.01],
                cpuRatio: [1.05, 1.1, 1.15]),
            row(
                baseline: "shared", errand: [950, 960, 990], ratio: [0.70, 0.75, 0.80],
                cpuRatio: [1.1, 1.1, 1.1]),
            row(label: "added", baseline: "raw", errand: [1], ratio: [1], cpuRatio: [1]),
        ])
        let outcome = compare(old: old, new: new)
        func judged(_ baseline: String, _ figure: String) -> Verdict? {
            outcome.figures.first { $0.baselineName == baseline && $0.name == figure }?.verdict
        }
        check(
            outcome.figures.count == 12, "two matched rows of six figures each, not \(outcome.figures.count)")
        check(judged("raw", "Errand req/s") == .better, "Errand's req/s rose beyond its spread")
        check(judged("raw", "ratio") == .unchanged, "the wall ratio ranges overlap")
        check(judged("raw", "CPU ratio") == .better, "the CPU ratio fell beyond its spread")
        check(judged("shared", "Errand req/s") == .unchanged, "a row is matched with its own baseline's")
        check(judged("shared", "ratio") == .worse, "the ratio against URLSession.shared fell")
        check(judged("shared", "baseline req/s") == .unchanged, "identical baselines are unchanged")
        check(
            outcome.onlyOld == ["transport · gone · execute (callback) vs raw"], "the row only in the old run"
        )
        check(
            outcome.onlyNew == ["transport · added · execute (callback) vs raw"],
            "the row only in the new run")

        // Through files, as `--compare` reads them, including a report from before `pinning`.
        let directory = FileManager.default.temporaryDirectory.appending(path: "errand-compare-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let oldPath = directory.appending(path: "old.json").path
        let newPath = directory.appending(path: "new.json").path
        try old.writeJSON(to: oldPath)
        try new.writeJSON(to: newPath)
        let withoutPinning = try String(contentsOfFile: oldPath, encoding: .utf8)
            .replacingOccurrences(of: "\"pinning\" : \"benchmark on core 0, nginx on core 1\",", with: "")
        check(!withoutPinning.contains("pinning"), "the made-up old report has no pinning key")
        try withoutPinning.write(toFile: oldPath, atomically: true, encoding: .utf8)
        let text = try run(oldPath: oldPath, newPath: newPath)
        check(
            text.contains("per round): 4 in both runs, 1 better, 1 worse, 2 within their spread."),
            "the ratios' summary line")
        check(
            text.contains("moves these too): 8 in both runs, 2 better, 0 worse, 6 within their spread."),
            "the absolute figures' summary line")
        check(text.contains("| WORSE"), "a worse figure is flagged")
        check(text.contains("+21.1%"), "the change of Errand's median req/s (950 → 1,150)")
        check(text.contains("Only in the new run (1 rows)"), "rows only in the new run are listed")

        guard failures.isEmpty else {
            throw BenchmarkError(
                "self-test: \(failures.count) check(s) failed:\n- " + failures.joined(separator: "\n- "))
        }
    }

    private static func report(rows: [ResultRow]) -> Report {
        var report = Report(
            date: "2026-12-01T00:00:00Z", quick: false, command: "--only transport",
            machine: Report.Machine(
                cores: 2, memoryGiB: 4, operatingSystem: "Linux", swiftVersion: "Swift 6", commit: "abc"),
            server: "http://127.0.0.1:1")
        report.pinning = "benchmark on core 0, nginx on core 1"
        report.rows = rows
        return report
    }

    private static func row(
        label: String = "small · 8 in flight", baseline: String, errand: [Double], ratio: [Double],
        cpuRatio: [Double]
    ) -> ResultRow {
        let baselineStats = Stats(errand.map { $0 / 0.95 })
        var row = ResultRow(
            scenario: "transport", label: label, variant: "execute (callback)", baselineName: baseline,
            metric: .throughput,
            baseline: baseline == "shared" ? Stats([1_000, 1_000, 1_000]) : baselineStats,
            errand: Stats(errand), ratio: Stats(ratio), target: nil, rounds: errand.count)
        row.cpu = CPUFigures(
            baseline: Stats([500, 510, 520]), errand: Stats([600, 610, 620]), ratio: Stats(cpuRatio))
        return row
    }
}
