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
    /// Large answers decode on both cores at once; a run pinned to one core cannot show it.
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
        cells.parallelDecodingTarget = Self.parallelDecodingTarget
        cells.userBaselines = [
            (Self.sharedSession, RawClient(baseURL: serverURL, session: .shared, owned: false)),
            (
                Self.defaultSession,
                RawClient(baseURL: serverURL, session: URLSession(configuration: .default), owned: true)
            ),
        ]
        return ScenarioOutcome(rows: try await cells.measure(in: context))
    }
}
