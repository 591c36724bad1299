import Foundation
import Testing

/// The loopback httpbin that `scripts/test` starts, found through the environment.
///
/// Under `scripts/test` (`ERRAND_REQUIRE_LIVE=1`) a missing server is a failure; under a bare
/// `swift test` the live tests are skipped with the reason.
enum LiveServer {
    static let environment = ProcessInfo.processInfo.environment

    /// httpbin, served by gunicorn.
    static let httpbin: URL? = environment["ERRAND_HTTPBIN_URL"].flatMap(URL.init(string:))
    /// Whether the servers must be there.
    static let isRequired = environment["ERRAND_REQUIRE_LIVE"] == "1"

    /// Run live tests when the server is configured, or when it is required (they then fail).
    static var httpbinAvailable: Bool { httpbin != nil || isRequired }

    /// The server's URL, or an error that fails the test when it is not configured.
    static func require(_ url: URL?, _ variable: String) throws -> URL {
        guard let url else { throw Missing(variable: variable) }
        return url
    }

    struct Missing: Error, CustomStringConvertible {
        let variable: String
        var description: String { "\(variable) is not set: run the suite with scripts/test" }
    }

    static let skipReason: Testing.Comment =
        "no ERRAND_HTTPBIN_URL: run scripts/test to start httpbin"
}
