import Errand
import ErrandReplay
import Foundation
import Testing

/// Checking a cassette up front, and the `cassette` code for every cassette and recording problem.
@Suite struct ReplayCassetteLoadingTests {
    let files: CassetteFolder

    init() throws {
        files = try CassetteFolder()
    }

    func load(
        _ cassette: URL, mode: ReplayDispatcher.Mode = .replayOnly, upstream: (any NetworkDispatcher)? = nil,
        _ configure: (inout ReplayDispatcher.Configuration) -> Void = { _ in }
    ) throws -> ReplayDispatcher {
        try ReplayDispatcher(
            loading: cassette, baseURL: testBaseURL, mode: mode, upstream: upstream,
            configuration: testConfiguration(configure))
    }

    @Test(arguments: ["garbage-truncated.har", "garbage-not-json.har", "garbage-wrong-type.har"])
    func loadingABrokenCassetteThrowsTheCassetteCodeAtOnce(fixture: String) throws {
        let url = try Fixtures.url(fixture)
        let error = #expect(throws: NetworkError.self) { try load(url) }
        #expect(error?.code == .cassette)
        #expect(error?.message.contains("Cannot read HAR file \(url.path) at ") == true)
        #expect(error?.underlyingError is HARError)
    }

    @Test func loadingAMissingCassetteThatMustReplayThrows() async throws {
        defer { files.remove() }
        // Given a misnamed cassette, When loaded to replay only, Then it throws at once
        let error = #expect(throws: NetworkError.self) { try load(files.cassette) }
        #expect(error?.code == .cassette)
        #expect(error?.message.contains("The cassette \(files.cassette.path) does not exist") == true)
        // The non-throwing initializer fails each request with the same error
        let replay = ReplayDispatcher(
            cassette: files.cassette, baseURL: testBaseURL, mode: .replayOnly,
            configuration: testConfiguration())
        #expect(await replay.text(.get("/users")).hasPrefix("error cassette: The cassette"))
    }

    @Test func loadingAGoodCassetteReplays() async throws {
        defer { files.remove() }
        try files.write(archive([("GET", "https://api.example.com/users", 200, "users")]))
        let replay = try load(files.cassette)
        #expect(await replay.text(.get("/users")) == "users")
        // A miss is still unmatchedRequest
        #expect(await replay.text(.get("/orders")).hasPrefix("error unmatchedRequest"))
    }

    @Test func loadingAMissingCassetteToRecordSucceeds() throws {
        defer { files.remove() }
        #expect(throws: Never.self) { try load(files.cassette, mode: .once, upstream: InMemoryDispatcher()) }
    }

    @Test func anUnknownModeThrowsAndListsTheValidOnes() throws {
        defer { files.remove() }
        let error = #expect(throws: NetworkError.self) {
            try load(files.cassette, mode: .once, upstream: InMemoryDispatcher()) {
                $0.environment = ["ERRAND_REPLAY_MODE": "sometimes"]
            }
        }
        #expect(error?.code == .cassette)
        #expect(
            error?.message.contains(
                "Use one of replayOnly, once, newEpisodes, recordAll, passthrough (or VCR's none, all, "
                    + "new_episodes), or unset it.") == true)
    }

    @Test func aMissThatRecordingWasRefusedForIsACassetteProblem() async throws {
        defer { files.remove() }
        try files.write(archive([("GET", "https://api.example.com/users", 200, "users")]))
        // Given newEpisodes on CI, where recording is refused
        let onCI = try load(files.cassette, mode: .newEpisodes, upstream: ForbiddenUpstream()) {
            $0.environment = ["CI": "true"]
        }
        // Then what is recorded replays, and a miss says recording was refused, with code cassette
        #expect(await onCI.text(.get("/users")) == "users")
        let miss = await onCI.text(.get("/orders"))
        #expect(miss.hasPrefix("error cassette: "))
        #expect(miss.contains("recording is refused because the environment says CI (CI=true)"))
        // And without an upstream to record through, likewise
        let noUpstream = try load(files.cassette, mode: .newEpisodes)
        #expect(await noUpstream.text(.get("/orders")).hasPrefix("error cassette: "))
    }

    @Test func aMissingCassetteOnCIThrowsSayingRecordingIsRefused() throws {
        defer { files.remove() }
        let error = #expect(throws: NetworkError.self) {
            try load(files.cassette, mode: .once, upstream: ForbiddenUpstream()) {
                $0.environment = ["GITHUB_ACTIONS": "true"]
            }
        }
        #expect(error?.code == .cassette)
        #expect(error?.message.contains("recording is refused because the environment says CI") == true)
    }

    @Test func aCassetteThatCannotBeWrittenFailsTheRecordingWithTheCassetteCode() async throws {
        defer { files.remove() }
        // Given a cassette whose folder is a file, so nothing can be written there
        try Data("a file".utf8).write(to: files.folder.url.appendingPathComponent("Cassettes"))
        let upstream = InMemoryDispatcher()
        upstream.stub(.get, "/users", response: .text("users"))
        let replay = try load(files.cassette, mode: .recordAll, upstream: upstream)
        // When a request is recorded, Then it fails with cassette
        let error = await #expect(throws: NetworkError.self) { try await replay.dispatch(.get("/users")) }
        #expect(error?.code == .cassette)
        #expect(error?.message.contains("was not written to the cassette") == true)
    }
}
