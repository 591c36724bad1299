import Foundation
import Testing

/// Scenarios that once broke a rule, replayed from their seeds (see ``ChaosTests``).
@Suite struct ChaosRegressionTests {
    /// The seeds of the scenarios that found a defect, each with what it was.
    static let seeds: [UInt64] = [0x1]

    @Test(arguments: seeds) func scenarioKeepsTheRules(seed: UInt64) async throws {
        // Given the scenario's chain, answers and cancel moment
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("errand-chaos-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // When it runs
        let signal = ChaosSignal()
        let failure = await signal.watching {
            await ChaosRunner.failure(seed: seed, directory: directory, signal: signal)
        }
        // Then every request got one callback that agrees with the rules
        #expect(failure == nil, "\(failure ?? "")")
    }
}
