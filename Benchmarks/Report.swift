import Foundation

/// Everything one run measured, with the machine it ran on.
struct Report: Codable, Sendable {
    struct Machine: Codable, Sendable {
        let cores: Int
        let memoryGiB: Double
        let operatingSystem: String
        let swiftVersion: String
        let commit: String
    }

    struct Skip: Codable, Sendable {
        let scenario: String
        let reason: String
    }

    let date: String
    let quick: Bool
    let command: String
    let machine: Machine
    let server: String?
    /// Which cores the benchmark and the server were pinned to, or why they were not.
    var pinning: String?
    var rows: [ResultRow] = []
    var skipped: [Skip] = []
    var notYetBuilt: [Skip] = []

    /// The report as Markdown tables, one per scenario, for standard output and the README.
    func table(summaries: [String: String]) -> String {
        var lines: [String] = []
        lines.append(
            "Errand benchmarks · \(machine.cores) cores · \(machine.swiftVersion) · commit \(machine.commit)"
                + (pinning.map { " · \($0)" } ?? "") + (quick ? " · QUICK (figures not meaningful)" : ""))
        var scenarios: [String] = []
        for row in rows where !scenarios.contains(row.scenario) { scenarios.append(row.scenario) }
        for scenario in scenarios {
            let scenarioRows = rows.filter { $0.scenario == scenario }
            lines.append("")
            lines.append("### \(scenario): \(summaries[scenario] ?? "")")
            lines.append("")
            let rounds = Set(scenarioRows.map(\.rounds)).sorted().map(String.init).joined(separator: "/")
            lines.append(
                "Median of \(rounds) round\(rounds == "1" ? "" : "s") (min–max), baseline and Errand "
                    + "alternating, the order turning each round. Ratio: Errand ÷ baseline in each "
                    + "round, then the median.")
            lines.append("")
            let unit = scenarioRows.first?.unit ?? ""
            let comparing = scenarioRows.first?.metric == .memory ? "Errand − baseline" : "ratio"
            var table = [
                ["case", "baseline", "Errand", "baseline \(unit)", "Errand \(unit)", comparing, "target", ""]
            ]
            for row in scenarioRows {
                table.append([
                    row.label, row.baselineName, row.variant, Format.stats(row.baseline, row.metric),
                    Format.stats(row.errand, row.metric), Self.comparison(row), row.target ?? "",
                    row.met.map { $0 ? "met" : "MISSED" } ?? "",
                ])
            }
            lines += Self.markdown(table)
            let cpuRows = scenarioRows.filter { $0.cpu != nil }
            if !cpuRows.isEmpty {
                lines.append("")
                lines.append(
                    "CPU time per operation in the same samples (µs; every thread of the benchmark process, "
                        + "nginx not included). Other load on the machine stretches wall time but barely "
                        + "moves this.")
                lines.append("")
                // The baseline's name only where a case has several, as the transport's has.
                let namesBaseline = Set(cpuRows.map(\.baselineName)).count > 1
                var cpuTable = [
                    ["case", "Errand"] + (namesBaseline ? ["baseline"] : [])
                        + ["baseline CPU µs/op", "Errand CPU µs/op", "CPU ratio"]
                ]
                for row in cpuRows {
                    guard let cpu = row.cpu else { continue }
                    cpuTable.append(
                        [row.label, row.variant] + (namesBaseline ? [row.baselineName] : []) + [
                            Format.stats(cpu.baseline, .time), Format.stats(cpu.errand, .time),
                            Format.ratio(cpu.ratio.median),
                        ])
                }
                lines += Self.markdown(cpuTable)
            }
            lines += Self.besideTable(scenarioRows)
            let notes = scenarioRows.compactMap { row in row.note.map { "- \(row.label): \($0)" } }
            if !notes.isEmpty {
                lines.append("")
                lines += notes
            }
        }
        if !skipped.isEmpty {
            lines.append("")
            lines.append("Skipped:")
            lines += skipped.map { "- \($0.scenario): \($0.reason)" }
        }
        if !notYetBuilt.isEmpty {
            lines.append("")
            lines.append(
                "Not built yet: "
                    + notYetBuilt.map { "\($0.scenario) (waits for \($0.reason))" }.joined(separator: "; "))
        }
        return lines.joined(separator: "\n")
    }

    /// Where a case and variant were measured against several baselines, their ratios side by
    /// side, the first baseline first: wall ratio, then CPU ratio.
    private static func besideTable(_ rows: [ResultRow]) -> [String] {
        var baselines: [String] = []
        var cases: [(label: String, variant: String)] = []
        for row in rows {
            if !baselines.contains(row.baselineName) { baselines.append(row.baselineName) }
            if !cases.contains(where: { $0 == (row.label, row.variant) }) {
                cases.append((row.label, row.variant))
            }
        }
        let compared = cases.filter { key in
            rows.filter { ($0.label, $0.variant) == key }.count > 1
        }
        guard !compared.isEmpty else { return [] }
        var table = [["case", "Errand"] + baselines.map { "÷ \($0)" }]
        for key in compared {
            table.append(
                [key.label, key.variant]
                    + baselines.map { baseline in
                        guard
                            let row = rows.first(where: {
                                ($0.label, $0.variant, $0.baselineName) == (key.label, key.variant, baseline)
                            })
                        else { return "" }
                        return Format.ratio(row.ratio.median)
                            + (row.cpu.map { ", CPU \(Format.ratio($0.ratio.median))" } ?? "")
                    })
        }
        return [
            "",
            "The same Errand beside each baseline (wall ratio, CPU ratio; medians of "
                + "\(Set(rows.map(\.rounds)).sorted().map(String.init).joined(separator: "/")) rounds). "
                + "The first is configured as Errand's session is, so its ratio is Errand's own cost; "
                + "the others are sessions as apps make them without a library, so theirs is what "
                + "switching to Errand changes.",
            "",
        ] + markdown(table)
    }

    /// The ratio, or for memory the difference of the medians, which stays readable near zero.
    private static func comparison(_ row: ResultRow) -> String {
        guard row.metric == .memory else { return Format.ratio(row.ratio.median) }
        let difference = row.errand.median - row.baseline.median
        return (difference >= 0 ? "+" : "") + Format.number(difference, digits: 1) + " MiB"
    }

    /// A Markdown table with padded columns; the first row is the header.
    static func markdown(_ table: [[String]]) -> [String] {
        let widths = (0..<(table.first?.count ?? 0)).map { column in
            table.map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            "| "
                + zip(cells, widths).map { cell, width in
                    cell + String(repeating: " ", count: width - cell.count)
                }.joined(separator: " | ") + " |"
        }
        var lines = [line(table[0])]
        lines.append("|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|")
        lines += table.dropFirst().map(line)
        return lines
    }

    /// Writes the report as JSON.
    func writeJSON(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path))
    }
}

extension Report.Machine {
    /// This machine, this toolchain and this checkout.
    static func current() -> Report.Machine {
        let info = ProcessInfo.processInfo
        let environment = info.environment
        let swiftVersion =
            environment["ERRAND_BENCH_SWIFT_VERSION"]
            ?? firstLine(of: ["swift", "--version"]) ?? "unknown Swift version"
        var commit = firstLine(of: ["git", "rev-parse", "--short=12", "HEAD"]) ?? "unknown"
        if let status = output(of: ["git", "status", "--porcelain", "--untracked-files=no"]), !status.isEmpty
        {
            commit += " (with uncommitted changes)"
        }
        return Report.Machine(
            cores: info.activeProcessorCount,
            memoryGiB: (Double(info.physicalMemory) / 1_073_741_824 * 10).rounded() / 10,
            operatingSystem: info.operatingSystemVersionString,
            swiftVersion: swiftVersion, commit: commit)
    }

    private static func firstLine(of command: [String]) -> String? {
        output(of: command)?.split(separator: "\n").first.map(String.init)
    }

    /// The standard output of a command found on the `PATH`, or `nil` when it fails.
    private static func output(of command: [String]) -> String? {
        guard
            let (status, data) = try? ChildProcess.run(
                URL(fileURLWithPath: "/usr/bin/env"), command, quiet: true),
            status == 0
        else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
