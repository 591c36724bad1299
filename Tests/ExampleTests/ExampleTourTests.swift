import Foundation
import Testing

@Suite struct ExampleTourTests {
    @Test func offlineTourPrintsWhatALiveRunPrints() async throws {
        // Given the demo server, and the recordings shipped in the repository
        let server = try DemoServer()
        let example = try ExampleProcess()

        // When the tour runs offline and then against the server
        let offline = try await example.run([])
        let live = try await example.run(["--live", server.url])

        // Then both succeed and print the same bytes
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(live.status == 0, "\(live.stderr)")
        #expect(offline.stdout == live.stdout)
        #expect(offline.stderr.contains("[offline"))
        #expect(live.stderr.contains("[live: \(server.url)"))
    }

    @Test func offlineTourWalksTheCatalogAndTheSession() async throws {
        // Given a fresh machine's view: no server, the shipped recordings
        let example = try ExampleProcess()

        // When the tour runs with no arguments
        let tour = try await example.run([])

        // Then it lists, searches, pages, opens one product, and signs in, out and in between
        #expect(tour.status == 0, "\(tour.stderr)")
        let landmarks = [
            "Page 1 of 2 (20 products)", "   1  iPhone 9", "Search \"phone\": 3 found",
            "Page 2 of 2 (20 products)", "  20  Key Holder", "  #1 iPhone 9",
            "Logged in as Emily Johnson.", "Emily Johnson (@emilys, emily.johnson@x.dummyjson.com)",
            "access token renewed: yes", "Logged out.", "me now says: not logged in",
        ]
        for landmark in landmarks {
            #expect(tour.stdout.contains(landmark), "missing: \(landmark)")
        }
    }

    @Test func verboseShowsTheRefreshAndRedactsTheToken() async throws {
        // Given the offline tour
        let example = try ExampleProcess()

        // When it runs with --verbose
        let tour = try await example.run(["--verbose"])

        // Then the log on standard error shows the refresh, and no bearer token in clear
        #expect(tour.status == 0, "\(tour.stderr)")
        #expect(tour.stderr.contains("→ POST /auth/refresh"))
        #expect(tour.stderr.contains("Authorization: <redacted>"))
        #expect(!tour.stderr.contains("Bearer"))
        #expect(!tour.stdout.contains("[errand"))
    }

    @Test func recordThenReplayGivesTheLiveOutput() async throws {
        // Given the demo server and an empty recordings folder
        let server = try DemoServer()
        let example = try ExampleProcess()
        let folder = example.home.appendingPathComponent("recordings", isDirectory: true)

        // When the tour is recorded from the server, then replayed from that folder
        let recorded = try await example.run(["--record", "--live", server.url, "--recordings", folder.path])
        let replayed = try await example.run(["--recordings", folder.path])
        let missing = try await example.run(["--recordings", folder.path, "product", "7"])

        // Then the replay prints the tour as the server answered it
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(recorded.stdout.hasPrefix(replayed.stdout))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("catalog.har").path))
        #expect(missing.status == 1)
        // And no password typed while recording (the right one, the wrong one) was written
        let written = try ShippedRecordingsTests.files(in: folder)
        #expect(written.count == 3)
        for file in written {
            let text = try String(contentsOf: file, encoding: .utf8)
            for password in DemoPasswords.all {
                #expect(
                    !DemoPasswords.occurs(password, in: text), "\(file.lastPathComponent) holds \(password)")
            }
        }
    }

    @Test func loginMeAndLogoutKeepTheSessionBetweenRuns() async throws {
        // Given the shipped recordings and an empty home folder
        let example = try ExampleProcess()

        // When the user signs in, asks who they are, signs out and asks again
        let login = try await example.run(["login", "emilys", "emilyspass"])
        let me = try await example.run(["me"])
        let logout = try await example.run(["logout"])
        let after = try await example.run(["me"])

        // Then the session outlives each process until logout
        #expect(login.stdout == "Logged in as Emily Johnson.\n", "\(login.stderr)")
        #expect(me.stdout.contains("@emilys"), "\(me.stderr)")
        #expect(logout.status == 0)
        #expect(after.status == 1)
        #expect(after.stderr.contains("not logged in"))
    }

    @Test func tourLeavesAStoredLoginAlone() async throws {
        // Given a user signed in from an earlier command
        let example = try ExampleProcess()
        let login = try await example.run(["login", "emilys", "emilyspass"])

        // When the tour runs, which signs in and out on its own
        let tour = try await example.run([])
        let me = try await example.run(["me"])

        // Then the stored session is still there
        #expect(login.status == 0, "\(login.stderr)")
        #expect(tour.status == 0, "\(tour.stderr)")
        #expect(me.status == 0, "\(me.stderr)")
    }

    @Test func commandsReplayOffline() async throws {
        // Given the shipped recordings
        let example = try ExampleProcess()

        // When the README's commands run offline
        let search = try await example.run(["products", "--search", "phone"])
        let page = try await example.run(["products", "--page", "2"])
        let add = try await example.run(["add", "--title", "Errand mug", "--price", "12.5"])
        let update = try await example.run(["update", "1", "--title", "iPhone 9 (renewed)", "--price", "499"])
        let delete = try await example.run(["delete", "1"])

        // Then each prints the recorded answer
        #expect(search.stdout.contains("Search \"phone\": 3 found"), "\(search.stderr)")
        #expect(page.stdout.contains("  11  perfume Oil"), "\(page.stderr)")
        #expect(add.stdout == "Added #21 Errand mug at $12.50\n", "\(add.stderr)")
        #expect(update.stdout == "Updated #1: iPhone 9 (renewed) at $499.00\n", "\(update.stderr)")
        #expect(delete.stdout == "Deleted #1 iPhone 9\n", "\(delete.stderr)")
    }
}
