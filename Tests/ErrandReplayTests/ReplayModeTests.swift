import Errand
import ErrandReplay
import Foundation
import Testing

/// The modes, the environment override, and the refusal to record on CI.
@Suite struct ReplayModeTests {
    let files: CassetteFolder
    let upstream = InMemoryDispatcher()

    init() throws {
        files = try CassetteFolder()
        upstream.stub(.get, "/users", response: .text("live users"))
        upstream.stub(.get, "/orders", response: .text("live orders"))
    }

    func recordedCassette() throws {
        try files.write(archive([("GET", "https://api.example.com/users", 200, "recorded users")]))
    }

    func replay(
        _ mode: ReplayDispatcher.Mode, upstream: (any NetworkDispatcher)? = nil,
        _ configure: (inout ReplayDispatcher.Configuration) -> Void = { _ in }
    ) -> ReplayDispatcher {
        ReplayDispatcher(
            cassette: files.cassette, baseURL: testBaseURL, mode: mode, upstream: upstream,
            configuration: testConfiguration(configure))
    }

    @Test func replayOnlyAnswersFromTheCassetteAndNeverTheUpstream() async throws {
        defer { files.remove() }
        try recordedCassette()
        let forbidden = ForbiddenUpstream()
        let replay = replay(.replayOnly, upstream: forbidden)
        #expect(await replay.text(.get("/users")) == "recorded users")
        #expect(await replay.text(.get("/orders")).hasPrefix("error unmatchedRequest"))
        #expect(forbidden.callCount == 0)
        #expect(!replay.reachesUpstream)
    }

    @Test func onceRecordsWhenTheCassetteIsMissingThenOnlyReplays() async throws {
        defer { files.remove() }
        // Given no cassette, When a request is sent in mode once, Then it is recorded
        let first = replay(.once, upstream: upstream)
        #expect(first.reachesUpstream)
        #expect(await first.text(.get("/users")) == "live users")
        #expect(try files.read().entries.map(\.request.url) == ["https://api.example.com/users"])
        // When a second run uses the cassette that now exists, Then it replays and records nothing
        let forbidden = ForbiddenUpstream()
        let second = replay(.once, upstream: forbidden)
        #expect(!second.reachesUpstream)
        #expect(await second.text(.get("/users")) == "live users")
        let miss = await second.text(.get("/orders"))
        #expect(miss.contains("the cassette exists, so it only replays"))
        #expect(forbidden.callCount == 0)
    }

    @Test func newEpisodesReplaysWhatMatchesAndAppendsTheRest() async throws {
        defer { files.remove() }
        try recordedCassette()
        let replay = replay(.newEpisodes, upstream: upstream)
        #expect(await replay.text(.get("/users")) == "recorded users")
        #expect(await replay.text(.get("/orders")) == "live orders")
        #expect(upstream.receivedRequests.map(\.path) == ["/orders"])
        let written = try files.read()
        #expect(written.entries.map(\.response.content.text) == ["recorded users", "live orders"])
    }

    @Test func recordAllSendsEverythingAndReplacesTheCassette() async throws {
        defer { files.remove() }
        try files.write(archive([("GET", "https://api.example.com/old", 200, "old")]))
        let replay = replay(.recordAll, upstream: upstream)
        #expect(await replay.text(.get("/users")) == "live users")
        #expect(await replay.text(.get("/users")) == "live users")
        #expect(upstream.receivedRequests.count == 2)
        #expect(
            try files.read().entries.map(\.request.url)
                == Array(repeating: "https://api.example.com/users", count: 2))
    }

    @Test func passthroughNeitherReadsNorWritesTheCassette() async throws {
        defer { files.remove() }
        // Given a cassette that is not even a HAR file
        try FileManager.default.createDirectory(
            at: files.cassette.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("not a cassette".utf8).write(to: files.cassette)
        let replay = replay(.passthrough, upstream: upstream)
        #expect(await replay.text(.get("/users")) == "live users")
        #expect(try files.bytes() == Data("not a cassette".utf8))
    }

    @Test func theEnvironmentVariableOverridesTheMode() async throws {
        defer { files.remove() }
        try recordedCassette()
        let replay = replay(.replayOnly, upstream: upstream) {
            $0.environment = ["ERRAND_REPLAY_MODE": "new_episodes"]
        }
        #expect(replay.mode == .newEpisodes)
        #expect(await replay.text(.get("/orders")) == "live orders")
        // A variable of another name is read when configured so
        let renamed = self.replay(.replayOnly, upstream: upstream) {
            $0.modeVariable = "APP_CASSETTES"
            $0.environment = ["APP_CASSETTES": "all", "ERRAND_REPLAY_MODE": "once"]
        }
        #expect(renamed.mode == .recordAll)
    }

    @Test func anUnknownModeInTheEnvironmentFailsEveryRequest() async throws {
        defer { files.remove() }
        let replay = replay(.once, upstream: upstream) {
            $0.environment = ["ERRAND_REPLAY_MODE": "sometimes"]
        }
        let error = await #expect(throws: NetworkError.self) { try await replay.dispatch(.get("/users")) }
        #expect(error?.code == .cassette)
        #expect(error?.message.contains("ERRAND_REPLAY_MODE=sometimes is not a replay mode") == true)
        #expect(error?.message.contains("replayOnly, once, newEpisodes, recordAll, passthrough") == true)
        #expect(upstream.receivedRequests.isEmpty)
    }

    @Test(arguments: [["CI": "true"], ["GITHUB_ACTIONS": "true"], ["CI": "1", "BUILDKITE": "true"]])
    func onCIEveryModeOnlyReplaysUnlessRecordingIsAllowed(environment: [String: String]) async throws {
        defer { files.remove() }
        try recordedCassette()
        for mode in [ReplayDispatcher.Mode.newEpisodes, .recordAll, .passthrough] {
            // Given a recording mode on CI
            let refused = replay(mode, upstream: upstream) { $0.environment = environment }
            // Then recorded requests replay and others fail, saying why, without reaching the upstream
            #expect(!refused.reachesUpstream)
            #expect(await refused.text(.get("/users")) == "recorded users", "\(mode)")
            let miss = await refused.text(.get("/orders"))
            #expect(miss.contains("recording is refused because the environment says CI"), "\(mode)")
            #expect(miss.contains("allowsRecordingOnCI"))
        }
        #expect(upstream.receivedRequests.isEmpty)
        // Mode once with no cassette yet fails instead of recording
        let missing = ReplayDispatcher(
            cassette: files.folder.url.appendingPathComponent("missing.har"), baseURL: testBaseURL,
            mode: .once,
            upstream: upstream, configuration: testConfiguration { $0.environment = environment })
        #expect(await missing.text(.get("/users")).contains("recording is refused"))
        #expect(upstream.receivedRequests.isEmpty)
        // When recording on CI is allowed explicitly, Then it records
        let allowed = replay(.newEpisodes, upstream: upstream) {
            $0.environment = environment
            $0.allowsRecordingOnCI = true
        }
        #expect(await allowed.text(.get("/orders")) == "live orders")
    }

    @Test func ciSetToFalseIsNotCI() async throws {
        defer { files.remove() }
        let replay = replay(.newEpisodes, upstream: upstream) {
            $0.environment = ["CI": "false", "TRAVIS": ""]
        }
        #expect(replay.reachesUpstream)
        #expect(await replay.text(.get("/users")) == "live users")
    }

    @Test func aRecordingModeWithoutAnUpstreamOnlyReplaysAndSaysWhy() async throws {
        defer { files.remove() }
        try recordedCassette()
        let replay = replay(.newEpisodes)
        #expect(await replay.text(.get("/users")) == "recorded users")
        #expect(await replay.text(.get("/orders")).contains("no upstream to record through"))
    }

    @Test func readsModesAsTheEnvironmentSpellsThem() {
        #expect(ReplayDispatcher.Mode(environmentValue: "replayOnly") == .replayOnly)
        #expect(ReplayDispatcher.Mode(environmentValue: "none") == .replayOnly)
        #expect(ReplayDispatcher.Mode(environmentValue: "ONCE") == .once)
        #expect(ReplayDispatcher.Mode(environmentValue: "new-episodes") == .newEpisodes)
        #expect(ReplayDispatcher.Mode(environmentValue: "all") == .recordAll)
        #expect(ReplayDispatcher.Mode(environmentValue: "record_all") == .recordAll)
        #expect(ReplayDispatcher.Mode(environmentValue: "passthrough") == .passthrough)
        #expect(ReplayDispatcher.Mode(environmentValue: "sometimes") == nil)
    }
}
