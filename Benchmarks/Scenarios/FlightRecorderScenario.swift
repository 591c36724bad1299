import Errand
import ErrandReplay
import Foundation

/// The full stack with a flight recorder outermost against the same full stack without it,
/// over loopback, in the cells of the full-stack scenario, measured in the same run.
///
/// The recorder keeps the last 500 exchanges within 8 MiB, with the default redaction: every
/// request carries the stack's `Authorization` header, so each exchange has a secret that is
/// hidden and searched for in the response body. The ratio is the cost of recording on top of
/// everything else an app runs; the target is at most 1.05× the full stack's cost.
struct FlightRecorderScenario: Scenario {
    let name = "flight-recorder"
    let summary =
        "full stack vs full stack + flight recorder (last 500 exchanges, 8 MiB, default redaction) (req/s)"

    static let target = Target.ratioAtLeast(1 / 1.05)

    func run(in context: BenchmarkContext) async throws -> ScenarioOutcome {
        guard let serverURL = context.serverURL else {
            return ScenarioOutcome(skipped: ["every cell: \(context.serverUnavailableReason ?? "")"])
        }
        let raw = RawClient(
            baseURL: serverURL,
            headers: [
                ("Authorization", "Bearer \(FullStackScenario.accessToken)"),
                ("User-Agent", FullStackScenario.userAgent),
            ])
        try await LoopbackCells.checkServer(raw, serves: context.payloads)
        let recorder = FlightRecorder(
            FlightRecorder.Configuration(maximumEntries: 500, maximumBytes: 8 << 20, baseURL: serverURL))
        let fullStack = FullStackScenario.stack(over: URLSessionDispatcher(baseURL: serverURL))
        var cells = LoopbackCells(
            scenario: name, target: Self.target, raw: raw,
            dispatcher: FullStackScenario.stack(over: URLSessionDispatcher(baseURL: serverURL))
                .flightRecording(into: recorder))
        cells.baselineStack = (name: "full stack", dispatcher: fullStack)
        let rows = try await cells.measure(in: context)
        guard recorder.count > 0 else { throw BenchmarkError("the flight recorder kept nothing") }
        return ScenarioOutcome(rows: rows)
    }
}
