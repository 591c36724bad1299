import Errand
import ErrandReplay
import ErrandTestSupport
import Foundation
import Testing

/// The `errand-verify` executable, run as CI runs it: its exit status and its report.
@Suite struct ErrandVerifyToolTests {
    /// What a run of the tool gave.
    struct Run {
        let status: Int32
        let output: String
        let errors: String
    }

    /// The tool, built next to the test bundle.
    static func executable() throws -> URL {
        var folders = [
            Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ]
        folders += Bundle.allBundles.filter { $0.bundleURL.pathExtension == "xctest" }.map {
            $0.bundleURL.deletingLastPathComponent()
        }
        let found = folders.map { $0.appendingPathComponent("errand-verify") }.first {
            FileManager.default.isExecutableFile(atPath: $0.path)
        }
        return try #require(
            found, "errand-verify is not built next to the tests in \(folders); swift build first")
    }

    /// Runs the tool and waits for it off the cooperative pool, which a blocked thread would
    /// hold up for every other test.
    static func run(_ arguments: [String]) async throws -> Run {
        try await offPool { Result { try runBlocking(arguments) } }.get()
    }

    private static func runBlocking(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            errors: String(decoding: errorData, as: UTF8.self))
    }

    /// A cassette of `/anything?<recorded>` whose URL is then rewritten to another host and
    /// `/anything?<verified>`, so the live answer has another set of query echoes.
    static func cassette(recorded: String, verified: String, base: URL, in files: CassetteFolder) async throws
    {
        let recorder = ReplayDispatcher(
            cassette: files.cassette, baseURL: base, mode: .recordAll,
            upstream: URLSessionDispatcher(baseURL: base, timeout: 10), configuration: testConfiguration())
        _ = try await recorder.dispatch(.get("/anything?\(recorded)"))
        var har = try files.read()
        har.entries[0].request.url = "https://staging.example.invalid/anything?\(verified)"
        try files.write(har)
    }

    @Test(.enabled(if: LiveServer.httpbinAvailable, LiveServer.skipReason))
    func exitsOneOnAMissingKeyAndZeroOnAnAddedOne() async throws {
        let base = try LiveServer.require(LiveServer.httpbin, "ERRAND_HTTPBIN_URL")
        let missing = try CassetteFolder()
        let added = try CassetteFolder()
        defer {
            missing.remove()
            added.remove()
        }
        // Given a cassette whose live answer lacks `args.b`, and one whose live answer adds it
        try await Self.cassette(recorded: "a=1&b=2", verified: "a=1", base: base, in: missing)
        try await Self.cassette(recorded: "a=1", verified: "a=1&b=2", base: base, in: added)
        // When the tool verifies each against httpbin through --base-url
        let breaking = try await Self.run([missing.cassette.path, "--base-url", base.absoluteString])
        let harmless = try await Self.run([added.cassette.path, "--base-url", base.absoluteString])
        let strict = try await Self.run([
            added.cassette.path, "--base-url", base.absoluteString, "--fail-on", "added,missing,type,status",
        ])
        // Then a missing key fails the run and an added one does not, unless asked
        #expect(breaking.status == 1, "\(breaking.output)\(breaking.errors)")
        #expect(breaking.output.contains("✗ missing key args.b"))
        #expect(breaking.output.contains("entry 0: GET \(base.absoluteString)/anything?a=1"))
        #expect(harmless.status == 0, "\(harmless.output)\(harmless.errors)")
        #expect(harmless.output.contains("+ added key args.b"))
        #expect(strict.status == 1)
        // And the text agrees with the status that --fail-on gives
        #expect(strict.output.contains("1 difference (1 breaking)"), "\(strict.output)")
        #expect(strict.output.contains("✗ added key args.b"))
        #expect(harmless.output.contains("1 difference (0 breaking)"))
    }

    @Test(.enabled(if: LiveServer.httpbinAvailable, LiveServer.skipReason))
    func rewritePointsARecordedPathAtAnotherEndpoint() async throws {
        let base = try LiveServer.require(LiveServer.httpbin, "ERRAND_HTTPBIN_URL")
        let files = try CassetteFolder()
        defer { files.remove() }
        // Given a recording of /json
        let recorder = ReplayDispatcher(
            cassette: files.cassette, baseURL: base, mode: .recordAll,
            upstream: URLSessionDispatcher(baseURL: base, timeout: 10), configuration: testConfiguration())
        _ = try await recorder.dispatch(.get("/json"))
        // When the tool verifies it with /json rewritten to /uuid
        let run = try await Self.run([files.cassette.path, "--rewrite", "/json", "/uuid"])
        // Then /uuid's shape is reported against /json's
        #expect(run.status == 1, "\(run.output)\(run.errors)")
        #expect(run.output.contains("entry 0: GET \(base.absoluteString)/uuid\n  ✗ missing key slideshow"))
        #expect(run.output.contains("+ added key uuid"))
    }

    @Test func helpExitsZeroAndUsageOrCassetteErrorsExitTwo() async throws {
        let help = try await Self.run(["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("USAGE: errand-verify <cassette.har>"))
        let unknown = try await Self.run(["cassette.har", "--fail-on", "everything"])
        #expect(unknown.status == 2)
        #expect(unknown.errors.contains("unknown change \"everything\""))
        let noCassette = try await Self.run(["--base-url", "http://127.0.0.1:1"])
        #expect(noCassette.status == 2)
        #expect(noCassette.errors.contains("Name the cassette"))
        let unreadable = try await Self.run(["/nonexistent/cassette.har"])
        #expect(unreadable.status == 2)
        #expect(unreadable.errors.contains("/nonexistent/cassette.har"))
    }
}
