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

    @Test(.enabled(if: LiveServer.httpbinAvailable, LiveServer.skipReason))
    func anotherOriginReceivesNoneOfTheRecordedCredentials() async throws {
        let base = try LiveServer.require(LiveServer.httpbin, "ERRAND_HTTPBIN_URL")
        let files = try CassetteFolder()
        defer { files.remove() }
        // Given httpbin's echo of a request that carried credentials, and the cassette's request
        // holding them in clear at another origin, as a browser export does
        let credentials: HTTPHeaders = [
            "Authorization": "Bearer live-token-1234", "Cookie": "session=c00kie-value",
            "X-API-Key": "api-key-5678",
        ]
        let recorder = ReplayDispatcher(
            cassette: files.cassette, baseURL: base, mode: .recordAll,
            upstream: URLSessionDispatcher(baseURL: base, timeout: 10), configuration: testConfiguration())
        var request = RequestData.get("/anything?api_key=K1ey0000&page=2")
        for header in credentials { request.headers.set(header.name, header.value) }
        _ = try await recorder.dispatch(request)
        var har = try files.read()
        har.entries[0].request.url =
            "https://ada:S3cretPw9@staging.example.invalid/anything?api_key=K1ey0000&page=2"
        har.entries[0].request.headers = credentials.map { HAR.Header(name: $0.name, value: $0.value) }
        try files.write(har)
        // When the tool sends it to httpbin, once bare and once with a token of its own
        let bare = try await Self.run([files.cassette.path, "--base-url", base.absoluteString])
        let token = try await Self.run([
            files.cassette.path, "--base-url", base.absoluteString, "--set-header",
            "Authorization: Bearer staging",
        ])
        // Then httpbin echoes none of the recorded credentials, and the report names them
        #expect(bare.status == 1, "\(bare.output)\(bare.errors)")
        for key in ["args.api_key", "headers.Authorization", "headers.Cookie", "headers.X-Api-Key"] {
            #expect(bare.output.contains("✗ missing key \(key)"), "\(bare.output)")
        }
        #expect(
            bare.output.contains(
                "withheld entry 0: GET \(base.absoluteString)/anything?page=2: recorded URL user info, "
                    + "query item api_key, header Authorization, header Cookie, header X-API-Key not sent"),
            "\(bare.output)")
        // And the token set is the one sent, while nothing recorded shows in either report
        #expect(!token.output.contains("missing key headers.Authorization"), "\(token.output)")
        #expect(token.output.contains("✗ missing key headers.Cookie"))
        for value in ["live-token-1234", "c00kie-value", "api-key-5678", "K1ey0000", "S3cretPw9"] {
            #expect(!bare.output.contains(value) && !token.output.contains(value))
        }
    }

    @Test func helpListsTheOptInsAndExitsZero() async throws {
        let help = try await Self.run(["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("--allow-unsafe-methods"))
        #expect(help.output.contains("GET, HEAD and OPTIONS are sent"))
        #expect(help.output.contains("the recorded credentials stay behind"))
        let hostile = try await Self.run(["--base-url", "not a url\u{1B}[2J\r\nerrand-verify: forged"])
        #expect(hostile.status == 2)
        #expect(!hostile.errors.contains("\u{1B}") && !hostile.errors.contains("\r"), "\(hostile.errors)")
        #expect(hostile.errors.split(separator: "\n").count == 2)
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
        // Said once, on one line, without a literal `\n` or the system error's dump
        #expect(unreadable.errors.components(separatedBy: "cassette.har").count == 2, "\(unreadable.errors)")
        #expect(unreadable.errors.split(separator: "\n").count == 1, "\(unreadable.errors)")
        #expect(!unreadable.errors.contains(#"\n"#) && !unreadable.errors.contains("Underlying error"))
    }
}
