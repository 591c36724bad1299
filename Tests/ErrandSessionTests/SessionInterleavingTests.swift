import ErrandTestSupport
import Foundation
import Testing

/// Several users signing in, switching and signing out while refreshes (rotating refresh tokens,
/// refusals, outages), reads through caches and coalescers, and sign-in and list screens are in
/// flight, answered in random order on an injected clock: nothing of one user ever reaches
/// another or an anonymous request, and no sign-out is undone.
///
/// `ERRAND_SESSION_SEED` replays a run of the random-seed test; `ERRAND_SESSION_SCENARIOS` (else
/// `ERRAND_CHAOS_SCENARIOS`, as the thread-sanitizer run sets it) sets how many scenarios each
/// test runs, 10,000 by default. A failure prints the scenario's seed and its last steps.
///
/// Serialized and on the main actor, like the apps it plays: `AuthState` and the view models live
/// there.
@MainActor @Suite(.serialized) struct SessionInterleavingTests {
    static let fixedSeed: UInt64 = 0x5E55_1011_B0DA_7E00
    static let steps = 40

    @Test func fixedSeedScenariosKeepUsersApart() async throws {
        try await Self.run(seed: Self.fixedSeed, label: "fixed seed")
    }

    @Test func randomSeedScenariosKeepUsersApart() async throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["ERRAND_SESSION_SEED"].flatMap(Self.parse) ?? UInt64.random(in: .min ... .max)
        let label = "random seed ERRAND_SESSION_SEED=0x\(String(seed, radix: 16))"
        print("sessions: \(label)")
        try await Self.run(seed: seed, label: label)
    }

    /// The scenarios of one replayed seed, e.g. `ERRAND_SESSION_REPLAY=0x1234`; none by default.
    @Test func replayedScenarioKeepsUsersApart() async throws {
        guard let seed = ProcessInfo.processInfo.environment["ERRAND_SESSION_REPLAY"].flatMap(Self.parse)
        else {
            return
        }
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        if let failure = try await SessionScenario(seed: seed, directory: directory).run(steps: Self.steps) {
            Issue.record("scenario 0x\(String(seed, radix: 16)) failed: \(failure)")
        }
    }

    static var scenarioCount: Int {
        let environment = ProcessInfo.processInfo.environment
        return (environment["ERRAND_SESSION_SCENARIOS"] ?? environment["ERRAND_CHAOS_SCENARIOS"])
            .flatMap { Int($0) } ?? 10_000
    }

    static func parse(_ text: String) -> UInt64? {
        text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
    }

    static func makeDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("errand-sessions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Runs the scenarios of `seed`, reporting at most three failures.
    static func run(seed: UInt64, label: String) async throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let started = ContinuousClock.now
        var failures = 0
        var ran = 0
        for index in 0..<scenarioCount {
            let scenarioSeed = SplitMix64.scenarioSeed(run: seed, index: index)
            ran += 1
            let scenario = try SessionScenario(seed: scenarioSeed, directory: directory)
            guard let failure = await scenario.run(steps: steps) else { continue }
            failures += 1
            Issue.record(
                """
                session scenario \(index) of the \(label) failed: \(failure)
                Replay it: ERRAND_SESSION_REPLAY=0x\(String(scenarioSeed, radix: 16)) \
                swift test --filter replayedScenarioKeepsUsersApart
                """)
            if failures == 3 { break }
        }
        print(
            "sessions: \(label): \(ran) scenarios in \(ContinuousClock.now - started), \(failures) failed")
    }
}
