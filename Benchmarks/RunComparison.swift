import Foundation

/// Two runs' figures (two `--json` files) side by side: which moved beyond their spread.
///
/// The rule: a figure moved when its min–max ranges in the two runs do not overlap and its
/// median changed by more than ``negligible``. Each range holds every round of its run, so ranges
/// that overlap mean the two runs could have drawn the same samples, and the change is not
/// judged, however far the medians are apart. The floor keeps ranges of one point (a single
/// round, or a figure as steady as a `static let` read) from calling a rounding error a change.
enum RunComparison {
    enum Verdict: String, Sendable {
        case better, worse, unchanged
    }

    /// One figure of one row, in both runs.
    struct Figure: Sendable {
        /// The row: scenario, case, Errand variant and baseline.
        let scenario: String
        let label: String
        let variant: String
        let baselineName: String
        /// Which figure of the row, such as `Errand req/s` or `CPU ratio`.
        let name: String
        /// The metric of the figure, or `nil` for a ratio.
        let metric: Metric?
        let old: Stats
        let new: Stats
        let verdict: Verdict
    }

    /// Every figure present in both runs, and the rows only one run has.
    struct Outcome: Sendable {
        var figures: [Figure] = []
        var onlyOld: [String] = []
        var onlyNew: [String] = []

        func count(_ verdict: Verdict) -> Int {
            figures.filter { $0.verdict == verdict }.count
        }
    }

    /// The relative change of a median below which a figure never counts as moved: 1%.
    static let negligible = 0.01

    /// Whether `new` moved from `old` beyond both spreads, and which way is better.
    static func verdict(old: Stats, new: Stats, higherIsBetter: Bool) -> Verdict {
        guard abs(new.median / old.median - 1) > negligible else { return .unchanged }
        if new.min > old.max { return higherIsBetter ? .better : .worse }
        if new.max < old.min { return higherIsBetter ? .worse : .better }
        return .unchanged
    }

    /// Matches the rows of two reports by scenario, case, variant and baseline, and judges each
    /// figure both have.
    static func compare(old: Report, new: Report) -> Outcome {
        var outcome = Outcome()
        let newRows = Dictionary(new.rows.map { (key(of: $0), $0) }, uniquingKeysWith: { first, _ in first })
        let oldKeys = Set(old.rows.map(key(of:)))
        for oldRow in old.rows {
            guard let newRow = newRows[key(of: oldRow)] else {
                outcome.onlyOld.append(key(of: oldRow))
                continue
            }
            outcome.figures += figures(old: oldRow, new: newRow)
        }
        outcome.onlyNew = new.rows.map(key(of:)).filter { !oldKeys.contains($0) }
        return outcome
    }

    private static func key(of row: ResultRow) -> String {
        "\(row.scenario) · \(row.label) · \(row.variant) vs \(row.baselineName)"
    }

    private static func figures(old oldRow: ResultRow, new row: ResultRow) -> [Figure] {
        func figure(_ name: String, _ metric: Metric?, _ old: Stats, _ new: Stats, higherIsBetter: Bool)
            -> Figure
        {
            Figure(
                scenario: row.scenario, label: row.label, variant: row.variant,
                baselineName: row.baselineName,
                name: name, metric: metric, old: old, new: new,
                verdict: verdict(old: old, new: new, higherIsBetter: higherIsBetter))
        }
        let higher = row.metric == .throughput
        var figures = [
            figure("baseline \(row.unit)", row.metric, oldRow.baseline, row.baseline, higherIsBetter: higher),
            figure("Errand \(row.unit)", row.metric, oldRow.errand, row.errand, higherIsBetter: higher),
        ]
        // A memory row's ratio of two growths near zero says nothing; its figures above do.
        if row.metric != .memory {
            figures.append(figure("ratio", nil, oldRow.ratio, row.ratio, higherIsBetter: higher))
        }
        if let oldCPU = oldRow.cpu, let newCPU = row.cpu {
            figures += [
                figure("baseline CPU µs/op", .time, oldCPU.baseline, newCPU.baseline, higherIsBetter: false),
                figure("Errand CPU µs/op", .time, oldCPU.errand, newCPU.errand, higherIsBetter: false),
                figure("CPU ratio", nil, oldCPU.ratio, newCPU.ratio, higherIsBetter: false),
            ]
        }
        return figures
    }

    /// The outcome for a person: the figures that moved, then a count of the rest.
    static func text(
        _ outcome: Outcome, old: (path: String, report: Report), new: (path: String, report: Report)
    )
        -> String
    {
        func describe(_ run: (path: String, report: Report)) -> String {
            let rounds = Set(run.report.rows.map(\.rounds)).sorted().map(String.init).joined(separator: "/")
            return "\(run.path) (commit \(run.report.machine.commit), \(run.report.date), \(rounds) rounds"
                + (run.report.pinning.map { ", \($0)" } ?? "") + (run.report.quick ? ", QUICK" : "") + ")"
        }
        var lines = [
            "Comparing \(describe(old))", "     with \(describe(new))",
            "A figure moved when its min–max ranges in the two runs do not overlap and its median "
                + "changed by more than \(Format.number(negligible * 100, digits: 0))%.",
        ]
        if old.report.quick != new.report.quick {
            lines.append("One run is --quick and the other is not: their spreads are not comparable.")
        }
        lines.append("")
        // Ratios first: taken within each round, they judge a change; absolute figures also move
        // with whatever else the machine was doing.
        let parts = [
            (
                "Ratios (Errand ÷ baseline, wall and CPU, per round)",
                outcome.figures.filter { $0.metric == nil }
            ),
            (
                "Absolute figures (other load on the machine moves these too)",
                outcome.figures.filter { $0.metric != nil }
            ),
        ]
        for (title, figures) in parts {
            let moved = figures.filter { $0.verdict != .unchanged }
            let better = moved.filter { $0.verdict == .better }.count
            lines.append(
                "\(title): \(figures.count) in both runs, \(better) better, \(moved.count - better) worse, "
                    + "\(figures.count - moved.count) within their spread.")
            guard !moved.isEmpty else {
                lines.append("")
                continue
            }
            lines.append("")
            var table = [["scenario", "case", "Errand", "baseline", "figure", "old", "new", "median", ""]]
            for figure in moved {
                let change = (figure.new.median / figure.old.median - 1) * 100
                table.append([
                    figure.scenario, figure.label, figure.variant, figure.baselineName, figure.name,
                    Format.stats(figure.old, figure.metric), Format.stats(figure.new, figure.metric),
                    (change >= 0 ? "+" : "") + Format.number(change, digits: 1) + "%",
                    figure.verdict == .better ? "better" : "WORSE",
                ])
            }
            lines += Report.markdown(table) + [""]
        }
        for (which, keys) in [("old", outcome.onlyOld), ("new", outcome.onlyNew)] where !keys.isEmpty {
            let shown = keys.prefix(4).joined(separator: "; ")
            lines.append(
                "Only in the \(which) run (\(keys.count) rows): \(shown)"
                    + (keys.count > 4 ? "; and \(keys.count - 4) more" : ""))
        }
        return lines.joined(separator: "\n")
    }

    /// Reads two `--json` files and returns the text of their comparison.
    static func run(oldPath: String, newPath: String) throws -> String {
        let old = try load(oldPath)
        let new = try load(newPath)
        return text(compare(old: old, new: new), old: (oldPath, old), new: (newPath, new))
    }

    static func load(_ path: String) throws -> Report {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw BenchmarkError("cannot read \(path): \(error.localizedDescription)")
        }
        do {
            return try JSONDecoder().decode(Report.self, from: data)
        } catch {
            throw BenchmarkError("\(path) is not a report written by --json: \(error)")
        }
    }
}
