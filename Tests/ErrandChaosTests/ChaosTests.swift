import ErrandTestSupport
import Foundation
import Testing

/// Random chains of policies over a server whose answers are random, cancelled at random
/// moments: every request gets exactly one callback, and its outcome agrees with the rules.
///
/// `ERRAND_CHAOS_SEED` replays a run of the random-seed test; `ERRAND_CHAOS_SCENARIOS` sets how
/// many scenarios each test runs (10,000 by default). A failure prints the scenario's seed and
/// chain: add the seed to `ChaosRegressionTests` to keep it as a regression test.
///
/// Serialized: each run keeps a core busy for tens of seconds, and two at once would leave the
/// rest of a parallel suite (tests with network deadlines among them) no core of its own.
@Suite(.serialized) struct ChaosTests {
    static let fixedSeed: UInt64 = 0x00C0_FFEE_E44A_4D00

    @Test func fixedSeedScenariosKeepTheRules() async throws {
        try await Self.run(seed: Self.fixedSeed, label: "fixed seed")
    }

    @Test func randomSeedScenariosKeepTheRules() async throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["ERRAND_CHAOS_SEED"].flatMap(Self.parse) ?? UInt64.random(in: .min ... .max)
        print("chaos: random seed ERRAND_CHAOS_SEED=0x\(String(seed, radix: 16))")
        try await Self.run(seed: seed, label: "random seed ERRAND_CHAOS_SEED=0x\(String(seed, radix: 16))")
    }

    /// How many scenarios a run has.
    static var scenarioCount: Int {
        ProcessInfo.processInfo.environment["ERRAND_CHAOS_SCENARIOS"].flatMap { Int($0) } ?? 10_000
    }

    static func parse(_ text: String) -> UInt64? {
        text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
    }

    /// Runs the scenarios of `seed`, reporting at most three failures.
    static func run(seed: UInt64, label: String) async throws {
        // Given a directory for the cassettes that recording layers write
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("errand-chaos-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let started = ContinuousClock.now
        var failures = 0
        var ran = 0
        let signal = ChaosSignal()
        let tally = ChaosTally()
        // When each scenario runs
        for index in 0..<scenarioCount {
            let scenarioSeed = SplitMix64.scenarioSeed(run: seed, index: index)
            ran += 1
            let failure = await signal.watching {
                await ChaosRunner.failure(
                    seed: scenarioSeed, directory: directory, signal: signal, tally: tally)
            }
            guard let failure else { continue }
            // Then none breaks a rule; a failure names what to replay
            failures += 1
            Issue.record(
                """
                chaos scenario \(index) of the \(label) failed: \(failure)
                Replay it: add 0x\(String(scenarioSeed, radix: 16)) to ChaosRegressionTests.seeds.
                """)
            if failures == 3 || signal.hung { break }
        }
        print("chaos: \(label): \(ran) scenarios in \(ContinuousClock.now - started), \(failures) failed")
        print("chaos: \(label): outcomes: \(tally.summary)")
    }
}
