import Errand
import ErrandPolicies
import ErrandReplay
import ErrandTestSupport
import Foundation
import Testing

/// A session recorded against httpbin, verified against httpbin: unchanged it reports nothing,
/// and each kind of change of shape is reported with its path.
@Suite(.enabled(if: LiveServer.httpbinAvailable, LiveServer.skipReason))
struct CassetteVerifierLiveTests {
    /// Records `session` against httpbin with a replay dispatcher in `recordAll` mode.
    static func record(_ session: [RequestData], base: URL, in files: CassetteFolder) async throws -> HAR {
        let recorder = ReplayDispatcher(
            cassette: files.cassette, baseURL: base, mode: .recordAll,
            upstream: URLSessionDispatcher(baseURL: base, timeout: 10), configuration: testConfiguration())
        for request in session {
            _ = try await recorder.dispatch(request)
        }
        return try files.read()
    }

    static func verifier(_ har: HAR, _ configure: (inout CassetteVerifier.Options) -> Void = { _ in })
        -> CassetteVerifier
    {
        CassetteVerifier(
            har: har, dispatcher: URLSessionDispatcher(timeout: 10),
            options: CassetteVerifier.Options(configure))
    }

    static let unchangedSession: [RequestData] = [
        .get("/get").query("x", "1").header("X-Trace", "abc"),
        .get("/json"),
        .get("/uuid"),
        .get("/anything").query("a", "1"),
        .get("/headers"),
        .get("/status/204"),
        .head("/get"),
        .put("/anything").body(.json(["users": [["id": 1], ["id": 2]]])),
        .delete("/delete").query("id", "7"),
        .post("/post").body(.form(["name": "Ada"])),
        .get("/bearer").header("Authorization", "Bearer live-token-1234"),
    ]

    @Test func anUnchangedSessionReportsNothingAndSkipsWhatIsNotSafe() async throws {
        let base = try LiveServer.require(LiveServer.httpbin, "ERRAND_HTTPBIN_URL")
        let files = try CassetteFolder()
        defer { files.remove() }
        // Given a session recorded against httpbin, its bearer token redacted in the cassette
        let har = try await Self.record(Self.unchangedSession, base: base, in: files)
        let before = try files.bytes()
        // When it is verified against httpbin, with the token supplied by the dispatcher
        let dispatcher = URLSessionDispatcher(timeout: 10).intercepted(by: [
            DefaultHeadersInterceptor(["Authorization": "Bearer staging-token-5678"])
        ])
        // (httpbin echoes request headers, so the token it adds everywhere is a key to ignore)
        let options = CassetteVerifier.Options { $0.ignoredBodyPaths = ["headers.Authorization"] }
        let report = await CassetteVerifier(har: har, dispatcher: dispatcher, options: options).verify()
        // Then nothing differs (values such as uuids and echoed headers do not count), the
        // PUT, DELETE and POST are skipped, and the cassette is left as it was
        #expect(report.differences.isEmpty, "\(report)")
        #expect(report.skipped.map(\.entry) == [7, 8, 9])
        #expect(report.skipped.map(\.reason) == [.unsafeMethod, .unsafeMethod, .unsafeMethod])
        #expect(report.verified == [0, 1, 2, 3, 4, 5, 6, 10])
        #expect(try files.bytes() == before)
        // When unsafe methods are allowed, Then they are sent and match too
        let optedIn = await Self.verifier(har) { $0.allowsUnsafeMethods = true }.verify()
        #expect(optedIn.skipped.isEmpty)
        #expect(optedIn.differences.map(\.entry) == [10], "only the token-less /bearer changes: \(optedIn)")
        #expect(optedIn.differences.map(\.kind).first == .statusChanged(from: 200, to: 401))
    }

    @Test func eachKindOfChangeIsReportedWithItsPath() async throws {
        let base = try LiveServer.require(LiveServer.httpbin, "ERRAND_HTTPBIN_URL")
        let files = try CassetteFolder()
        defer { files.remove() }
        // Given a recorded session
        let har = try await Self.record(
            [
                .get("/anything").query("a", "1"),
                .get("/anything").query("a", "1").query("b", "2"),
                .get("/anything").query("a", "1"),
                .get("/json"),
                .get("/status/200"),
                .put("/anything").body(.json(["users": [["address": ["zip": "75001"]]]])),
                .put("/anything").body(.json(["name": "Ada"])),
            ], base: base, in: files)
        // When each entry is pointed at an endpoint whose answer has another shape
        let rewrites: [Int: (String, String)] = [
            0: ("?a=1", "?a=1&b=2"), 1: ("?a=1&b=2", "?a=1"), 2: ("?a=1", "?a=1&a=2"), 3: ("/json", "/uuid"),
            4: ("/status/200", "/status/418"),
        ]
        let report = await Self.verifier(har) { options in
            options.allowsUnsafeMethods = true  // the PUTs echo the bodies the mapping changes
            options.mapRequest = { entry, request in
                var request = request
                if let rewrite = rewrites[entry] {
                    request.path = request.path.replacingOccurrences(of: rewrite.0, with: rewrite.1)
                } else if entry == 5 {
                    request.body = .json(["users": [["address": ["zip": 75001]]]])
                } else if entry == 6 {
                    request.body = nil
                }
                return request
            }
        }.verify()
        // Then each change is reported at its path
        let kinds = { (entry: Int) in report.differences(inEntry: entry).map(\.kind) }
        #expect(kinds(0) == [.keyAdded(path: "args.b")])
        #expect(kinds(1) == [.keyMissing(path: "args.b")])
        #expect(kinds(2) == [.typeChanged(path: "args.a", from: .string, to: .array)])
        #expect(kinds(3) == [.keyMissing(path: "slideshow"), .keyAdded(path: "uuid")])
        #expect(kinds(4) == [.statusChanged(from: 200, to: 418)])
        #expect(kinds(5) == [.typeChanged(path: "json.users[0].address.zip", from: .string, to: .number)])
        #expect(kinds(6).contains(.becameNull(path: "json")))
        #expect(report.isBreaking())
        #expect(
            report.description.contains("entry 3: GET \(base.absoluteString)/uuid\n  ✗ missing key slideshow")
        )
    }
}
