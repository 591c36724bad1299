import Errand
import ErrandReplay
import Foundation
import Testing

/// The replay types cross task boundaries, so their `Sendable` claims are exercised.
@Suite struct ReplaySendableTests {
    @Test func passesEveryReplayTypeToADetachedTask() async throws {
        // Given values of every public replay type
        let files = try CassetteFolder()
        defer { files.remove() }
        try files.write(archive([("GET", "https://api.example.com/a", 200, "a")]))
        let matcher = ReplayDispatcher.Matcher("any") { _, _ in true }
        let matching = ReplayDispatcher.Matching(ignoredQueryItems: ["ts"], matchers: [matcher])
        let configuration = testConfiguration {
            $0.matching = matching
            $0.timing = .recorded(factor: 0)
        }
        let mode = ReplayDispatcher.Mode.replayOnly
        let exhaustion = ReplayDispatcher.Exhaustion.repeatLast
        let timing = ReplayDispatcher.Timing.instant
        let replay = ReplayDispatcher(
            cassette: files.cassette, baseURL: testBaseURL, mode: mode, configuration: configuration)
        let recording = try Recording(
            request: .get("/a"), baseURL: testBaseURL, response: NetworkResponse(statusCode: 204))
        // When used from a detached task
        let summary = await Task.detached {
            let text = await replay.text(.get("/a"))
            let report: ReplayDispatcher.Report = replay.report
            return [
                text, "\(report.allPlayed)", "\(mode)", "\(exhaustion)", "\(timing)", matcher.name,
                "\(configuration.matching.ignoredQueryItems)", "\(recording.entry.response.status)",
            ].joined(separator: " ")
        }.value
        // Then they arrive intact
        #expect(summary == #"a true replayOnly repeatLast instant any ["ts"] 204"#)
    }
}
