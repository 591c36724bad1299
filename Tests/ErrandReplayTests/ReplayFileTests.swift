import Errand
import Foundation
import Testing

@testable import ErrandReplay

/// Cassette files: where they go, what a broken one says, atomic writes, and the play report.
@Suite struct ReplayFileTests {
    @Test func placesCassettesNextToTheTestFileInAFolderNamedAfterTheSuite() {
        let url = ReplayDispatcher.cassetteURL(suite: Self.self)
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        #expect(
            url.path
                == here.appendingPathComponent(
                    "Cassettes/ReplayFileTests/placesCassettesNextToTheTestFileInAFolderNamedAfterTheSuite.har"
                ).path)
        let named = ReplayDispatcher.cassetteURL(
            "users: page 2/3", suite: "User API", filePath: "/src/Tests/A.swift")
        #expect(named.path == "/src/Tests/Cassettes/User-API/users--page-2-3.har")
        #expect(
            ReplayDispatcher.cassetteURL("x.har", suite: "S", filePath: "/t/A.swift").lastPathComponent
                == "x.har")
    }

    @Test func reportsTheRecordingsNeverPlayedAndAssertsThatAllWere() async throws {
        let files = try CassetteFolder()
        defer { files.remove() }
        try files.write(
            archive([
                ("GET", "https://api.example.com/a", 200, "a"),
                ("GET", "https://api.example.com/b?token=t-1", 200, "b"),
                ("GET", "https://api.example.com/c", 200, "c"),
            ]))
        let replay = ReplayDispatcher(
            cassette: files.cassette, baseURL: testBaseURL, mode: .replayOnly,
            configuration: testConfiguration())
        _ = try await replay.dispatch(.get("/a"))
        // Then the report names the two recordings never played, with secrets redacted
        let report = replay.report
        #expect(!report.allPlayed)
        #expect(report.recordingCount == 3)
        #expect(report.unplayed.map(\.entryIndex) == [1, 2])
        #expect(report.unplayed[0].url == "https://api.example.com/b?token=%3Credacted%3E")
        let thrown = #expect(throws: ReplayDispatcher.Report.self) { try replay.assertAllPlayed() }
        #expect(
            thrown?.description.contains("2 of 3 recordings of \(files.cassette.path) were never played")
                == true)
        #expect(thrown?.description.contains("  entry 2: GET https://api.example.com/c") == true)
        // When the rest are played, Then the assertion holds
        _ = try await replay.dispatch(.get("/b").query("token", "t-1"))
        _ = try await replay.dispatch(.get("/c"))
        try replay.assertAllPlayed()
        #expect(replay.report.description == "All 3 recordings of \(files.cassette.path) were played.")
    }

    @Test(arguments: [
        ("garbage-truncated.har", "line 558, column 115", HARError.Code.truncated),
        ("garbage-wrong-type.har", "log.entries[", .wrongType),
        ("garbage-not-json.har", "line 1, column 1", .notJSON),
    ])
    func aBrokenCassetteFailsEachRequestNamingTheFileAndThePosition(
        fixture: String, position: String, code: HARError.Code
    ) async throws {
        // Given a cassette corrupted on purpose
        let url = try Fixtures.url(fixture)
        let replay = ReplayDispatcher(
            cassette: url, mode: .newEpisodes, upstream: ForbiddenUpstream(),
            configuration: testConfiguration())
        // When a request is sent, Then it fails saying what is wrong and where
        let error = await #expect(throws: NetworkError.self) {
            try await replay.dispatch(.get("https://a.example/"))
        }
        #expect(error?.code == .cassette)
        #expect(
            error?.message.contains("The cassette cannot be used. Cannot read HAR file \(url.path) at ")
                == true)
        #expect(error?.message.contains(position) == true)
        #expect((error?.underlyingError as? HARError)?.code == code)
        #expect(!replay.reachesUpstream)
    }

    @Test func anInterruptedWriteLeavesThePreviousCassetteWhole() throws {
        let files = try CassetteFolder()
        defer { files.remove() }
        // Given a cassette on disk
        try files.write(archive([("GET", "https://api.example.com/old", 200, "old")]))
        let before = try files.bytes()
        let replacement = try archive([
            ("GET", "https://api.example.com/new", 200, String(repeating: "new", count: 100_000))
        ])
        .encoded()
        // When a write is interrupted after its temporary file is complete, before the rename
        var seen: (destination: Data, temporary: Data)?
        #expect(throws: HARError.self) {
            try HARFileWriter.write(replacement, to: files.cassette) { temporary in
                seen = (try Data(contentsOf: files.cassette), try Data(contentsOf: temporary))
                throw CocoaError(.userCancelled)
            }
        }
        // Then, at that moment and after, the cassette was whole; the new bytes were only elsewhere
        #expect(seen?.destination == before)
        #expect(seen?.temporary == replacement)
        #expect(try files.bytes() == before)
        #expect(
            try FileManager.default.contentsOfDirectory(
                atPath: files.cassette.deletingLastPathComponent().path) == ["cassette.har"])
    }

    @Test func ignoresTheTemporaryFileOfAWriteThatDied() async throws {
        let files = try CassetteFolder()
        defer { files.remove() }
        // Given a cassette and a half-written temporary file left by a killed process
        try files.write(archive([("GET", "https://api.example.com/users", 200, "users")]))
        let leftover = files.cassette.deletingLastPathComponent().appendingPathComponent(
            ".cassette.har.0A1B.tmp")
        try Data(#"{"log": {"entr"#.utf8).write(to: leftover)
        // Then the cassette replays, and a new recording replaces it whole
        let upstream = InMemoryDispatcher()
        upstream.stub(.get, "/more", response: .text("more"))
        let replay = ReplayDispatcher(
            cassette: files.cassette, baseURL: testBaseURL, mode: .newEpisodes, upstream: upstream,
            configuration: testConfiguration())
        #expect(await replay.text(.get("/users")) == "users")
        #expect(await replay.text(.get("/more")) == "more")
        #expect(try files.read().entries.count == 2)
    }
}
