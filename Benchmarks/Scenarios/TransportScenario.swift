import Errand
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Raw `URLSession` + `JSONDecoder` against `URLSessionDispatcher` + `execute`, over loopback.
///
/// The cells (1, 8 and 64 in flight, small and medium payload, callback and async `execute`)
/// are ``LoopbackCells``, shared with the full-stack scenario. The main baseline's session is
/// configured as Errand's own (ephemeral, no URL cache, no cookies), so its ratio is what
/// Errand's code costs. Two more baselines, in fewer rounds, are what apps write without a library,
/// `URLSession.shared` and `URLSession(configuration: .default)`, against Errand with its
/// defaults: their ratios, read beside the first, are what switching to Errand changes.
struct TransportScenario: Scenario {
    let name = "transport"
    let summary =
        "raw URLSession dataTask + JSONDecoder vs URLSessionDispatcher + execute, loopback nginx (req/s)"

    static let target = Target.ratioAtLeast(0.97)
    /// Large answers decode on both cores at once; judged only when the benchmark may use two.
    static let parallelDecodingTarget = Target.ratioAtLeast(1.2)
    static let sharedSession = "URLSession.shared + JSONDecoder"
    static let defaultSession = "URLSession(.default) + JSONDecoder"

    func run(in context: BenchmarkContext) async throws -> ScenarioOutcome {
        guard let serverURL = context.serverURL else {
            return ScenarioOutcome(skipped: ["every cell: \(context.serverUnavailableReason ?? "")"])
        }
        let raw = RawClient(baseURL: serverURL)
        try await LoopbackCells.checkServer(raw, serves: context.payloads)
        var cells = LoopbackCells(
            scenario: name, target: Self.target, raw: raw,
            dispatcher: URLSessionDispatcher(baseURL: serverURL))
        var skipped: [String] = []
        if UsableCores.count() > 1 {
            cells.parallelDecodingTarget = Self.parallelDecodingTarget
        } else {
            // One core decodes one body at a time: these cells can only show that nothing is lost.
            skipped.append(
                "decoding in parallel (medium, 8 and 64 in flight, \(Self.parallelDecodingTarget.description)): the "
                    + "benchmark may run on one core only, so those cells are held to \(Self.target.description); "
                    + "ERRAND_BENCH_PIN=0 lets it use every core")
        }
        cells.userBaselines = [
            (Self.sharedSession, RawClient(baseURL: serverURL, session: .shared, owned: false)),
            (
                Self.defaultSession,
                RawClient(baseURL: serverURL, session: URLSession(configuration: .default), owned: true)
            ),
        ]
        return ScenarioOutcome(rows: try await cells.measure(in: context), skipped: skipped)
    }
}
