import Errand
import Foundation

/// Raw `URLSession` + `JSONDecoder` against `URLSessionDispatcher` + `execute`, over loopback.
///
/// The cells (1, 8 and 64 in flight, small and medium payload, callback and async `execute`)
/// are ``LoopbackCells``, shared with the full-stack scenario.
struct TransportScenario: Scenario {
    let name = "transport"
    let summary =
        "raw URLSession dataTask + JSONDecoder vs URLSessionDispatcher + execute, loopback nginx (req/s)"

    static let target = Target.ratioAtLeast(0.97)

    func run(in context: BenchmarkContext) async throws -> ScenarioOutcome {
        guard let serverURL = context.serverURL else {
            return ScenarioOutcome(skipped: ["every cell: \(context.serverUnavailableReason ?? "")"])
        }
        let raw = RawClient(baseURL: serverURL)
        try await LoopbackCells.checkServer(raw, serves: context.payloads)
        let cells = LoopbackCells(
            scenario: name, target: Self.target, raw: raw,
            dispatcher: URLSessionDispatcher(baseURL: serverURL))
        return ScenarioOutcome(rows: try await cells.measure(in: context))
    }
}
