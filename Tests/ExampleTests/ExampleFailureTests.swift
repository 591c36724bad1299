import Foundation
import Testing

@Suite struct ExampleFailureTests {
    @Test func unknownCommandIsAUsageError() async throws {
        // Given / When
        let run = try await ExampleProcess().run(["frobnicate"])

        // Then
        #expect(run.status == 2)
        #expect(run.stderr.contains("error: unknown command 'frobnicate'"))
        #expect(run.stderr.contains("swift run Example help"))
        #expect(run.stdout.isEmpty)
    }

    @Test(arguments: [
        (["product"], "`product` needs a product id"),
        (["login", "emilys"], "`login` needs a user and a password"),
        (["products", "--search"], "--search needs a value"),
        (["product", "abc"], "product needs a whole number"),
        (["--live"], "--live needs a value"),
        (["--record"], "--record needs --live"),
        (["--staging", "--live", "http://127.0.0.1:1"], "choose --staging or --live"),
    ])
    func missingOrBadArgumentIsAUsageError(arguments: [String], message: String) async throws {
        // Given / When
        let run = try await ExampleProcess().run(arguments)

        // Then
        #expect(run.status == 2)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }

    @Test func productThatDoesNotExistSaysSo() async throws {
        // Given / When: the recordings hold the server's 404 for product 9999
        let run = try await ExampleProcess().run(["product", "9999"])

        // Then
        #expect(run.status == 1)
        #expect(run.stderr.contains("error: there is no product 9999"), "\(run.stderr)")
        #expect(run.stderr.contains("Product with id '9999' not found"))
    }

    @Test func wrongPasswordIsRefusedOfflineAndLive() async throws {
        // Given the demo server
        let server = try DemoServer()
        let example = try ExampleProcess()

        // When a wrong password is given offline and live
        let offline = try await example.run(["login", "emilys", "wrong"])
        let live = try await example.run(["--live", server.url, "login", "emilys", "not-the-password"])

        // Then both say the login was refused, and nothing is stored
        for run in [offline, live] {
            #expect(run.status == 1)
            #expect(run.stderr.contains("error: login refused: wrong user name or password"), "\(run.stderr)")
        }
        #expect(try await example.run(["me"]).status == 1)
    }

    @Test func unreachableServerSaysWhere() async throws {
        // Given a port nothing listens on (port 1 needs privileges to bind)
        let example = try ExampleProcess()

        // When
        let run = try await example.run(["--live", "http://127.0.0.1:1", "products"])

        // Then
        #expect(run.status == 1)
        #expect(
            run.stderr.contains("error: cannot reach the live server at http://127.0.0.1:1"), "\(run.stderr)")
    }

    @Test func commandTheRecordingsDoNotCoverSaysHowToRunIt() async throws {
        // Given / When: product 7 was never recorded
        let run = try await ExampleProcess().run(["product", "7"])

        // Then
        #expect(run.status == 1)
        #expect(run.stderr.contains("the offline recordings do not cover this command"), "\(run.stderr)")
        #expect(run.stderr.contains("GET /products/7"))
        #expect(run.stderr.contains("--live <url>"))
    }

    @Test func missingRecordingsFolderIsReported() async throws {
        // Given a folder without recordings
        let example = try ExampleProcess()

        // When
        let run = try await example.run([
            "--recordings", example.home.appendingPathComponent("none").path, "products",
        ])

        // Then
        #expect(run.status == 1)
        #expect(run.stderr.contains("error: the recordings cannot be read"), "\(run.stderr)")
    }
}
