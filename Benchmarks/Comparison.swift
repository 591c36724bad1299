/// What a figure measures, and so which way is better.
enum Metric: String, Codable, Sendable {
    /// Requests per second; higher is better.
    case throughput
    /// Microseconds per operation; lower is better.
    case time
    /// Nanoseconds per operation, for work far below a microsecond; lower is better.
    case nanoseconds
    /// Growth of the peak resident set, in MiB; lower is better.
    case memory

    var unit: String {
        switch self {
        case .throughput: "req/s"
        case .time: "µs/op"
        case .nanoseconds: "ns/op"
        case .memory: "MiB"
        }
    }
}

/// The median and the range of a set of samples.
struct Stats: Codable, Sendable {
    let median: Double
    let min: Double
    let max: Double
    let samples: [Double]

    init(_ samples: [Double]) {
        let sorted = samples.sorted()
        self.samples = samples
        self.min = sorted.first ?? .nan
        self.max = sorted.last ?? .nan
        if sorted.isEmpty {
            median = .nan
        } else if sorted.count.isMultiple(of: 2) {
            median = (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        } else {
            median = sorted[sorted.count / 2]
        }
    }
}

/// A goal from the benchmark issue, checked against a measured row.
enum Target: Sendable {
    /// Errand's figure divided by the baseline's is at least this (throughput).
    case ratioAtLeast(Double)
    /// Errand's figure divided by the baseline's is at most this (time).
    case ratioAtMost(Double)
    /// Errand's median growth is no more than the baseline's plus `slack` MiB (memory).
    case noGrowthBeyondBaseline(slack: Double)
    /// Errand's median is at most this figure in the row's metric, whatever the baseline does
    /// (for targets set in absolute terms, such as ns per resolve).
    case atMost(Double, Metric)

    var description: String {
        switch self {
        case .ratioAtLeast(let ratio): "≥ \(Format.ratio(ratio))"
        case .ratioAtMost(let ratio): "≤ \(Format.ratio(ratio))"
        case .noGrowthBeyondBaseline(let slack): "≤ baseline + \(Format.number(slack, digits: 1)) MiB"
        case .atMost(let bound, let metric): "≤ \(Format.figure(bound, metric)) \(metric.unit)"
        }
    }

    func isMet(baseline: Stats, errand: Stats, ratio: Stats) -> Bool {
        switch self {
        case .ratioAtLeast(let bound): ratio.median >= bound
        case .ratioAtMost(let bound): ratio.median <= bound
        case .noGrowthBeyondBaseline(let slack): errand.median <= baseline.median + slack
        case .atMost(let bound, _): errand.median <= bound
        }
    }
}

/// One side of a comparison: a name, and a closure that does the work once and returns the figure.
struct Contender: Sendable {
    let name: String
    let sample: @Sendable () async throws -> Sample
}

/// A baseline and Errand doing the same work, measured in alternation.
struct Comparison: Sendable {
    /// The case, such as `small · 8 in flight`.
    let label: String
    /// Which form of Errand, such as `execute (callback)`.
    let variant: String
    let metric: Metric
    let target: Target?
    let baseline: Contender
    let errand: Contender

    /// Runs one untimed warm-up of each side (unless `warmUp` is false), then `rounds` rounds of
    /// one sample of each side, the order turning each round (A B, B A, A B …). The ratio is
    /// Errand over baseline, taken per round and then its median, so drift between rounds
    /// cancels out, and turning the order keeps either side from always running second, after
    /// the other has warmed or loaded the machine (and the server) for it.
    func measure(rounds: Int, warmUp: Bool = true, scenario: String, progress: (String) -> Void)
        async throws -> ResultRow
    {
        if warmUp {
            _ = try await baseline.sample()
            _ = try await errand.sample()
        }
        var baselineSamples: [Sample] = []
        var errandSamples: [Sample] = []
        for round in 0..<rounds {
            if Self.baselineFirst(inRound: round) {
                baselineSamples.append(try await baseline.sample())
                errandSamples.append(try await errand.sample())
            } else {
                errandSamples.append(try await errand.sample())
                baselineSamples.append(try await baseline.sample())
            }
        }
        var row = ResultRow(
            scenario: scenario, label: label, variant: variant, baselineName: baseline.name,
            metric: metric, baseline: Stats(baselineSamples.map(\.value)),
            errand: Stats(errandSamples.map(\.value)),
            ratio: Stats(zip(errandSamples, baselineSamples).map { $0.value / $1.value }), target: target,
            rounds: rounds)
        let cpu = zip(baselineSamples, errandSamples).compactMap {
            pair -> (baseline: Double, errand: Double)? in
            guard let baseline = pair.0.cpuPerOperation, let errand = pair.1.cpuPerOperation else {
                return nil
            }
            return (baseline, errand)
        }
        if cpu.count == rounds {
            row.cpu = CPUFigures(
                baseline: Stats(cpu.map(\.baseline)), errand: Stats(cpu.map(\.errand)),
                ratio: Stats(cpu.map { $0.errand / $0.baseline }))
        }
        progress(row.progressLine)
        return row
    }

    /// Whether the baseline samples first in `round` (counted from 0): in even rounds, so an odd
    /// number of rounds gives the baseline the first place once more than Errand.
    static func baselineFirst(inRound round: Int) -> Bool {
        round.isMultiple(of: 2)
    }
}

/// CPU time per operation, in µs, of both sides of a comparison, and Errand's over the baseline's.
struct CPUFigures: Codable, Sendable {
    let baseline: Stats
    let errand: Stats
    let ratio: Stats
}

/// One measured line of the report.
struct ResultRow: Codable, Sendable {
    let scenario: String
    let label: String
    let variant: String
    let baselineName: String
    let metric: Metric
    let unit: String
    let baseline: Stats
    let errand: Stats
    /// Errand's figure over the baseline's, per round.
    let ratio: Stats
    let target: String?
    /// Whether the target is met; `nil` when the row has no target.
    let met: Bool?
    let rounds: Int
    /// The process's CPU time per operation in the same samples, when they measured it.
    var cpu: CPUFigures?
    /// Anything more the reader needs, such as the memory retained after the run.
    var note: String?

    init(
        scenario: String, label: String, variant: String, baselineName: String, metric: Metric,
        baseline: Stats, errand: Stats, ratio: Stats, target: Target?, rounds: Int, note: String? = nil
    ) {
        self.scenario = scenario
        self.label = label
        self.variant = variant
        self.baselineName = baselineName
        self.metric = metric
        self.unit = metric.unit
        self.baseline = baseline
        self.errand = errand
        self.ratio = ratio
        self.target = target?.description
        self.met = target?.isMet(baseline: baseline, errand: errand, ratio: ratio)
        self.rounds = rounds
        self.note = note
    }

    var progressLine: String {
        "\(scenario): \(label), \(variant): \(Format.figure(baseline.median, metric)) → "
            + "\(Format.figure(errand.median, metric)) \(metric.unit), ratio \(Format.ratio(ratio.median))"
            + (cpu.map {
                "; CPU µs/op \(Format.figure($0.baseline.median, .time)) → "
                    + "\(Format.figure($0.errand.median, .time)), ratio \(Format.ratio($0.ratio.median))"
            } ?? "")
    }
}
