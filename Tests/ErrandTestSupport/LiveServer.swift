import Foundation
import Testing

/// The loopback servers that `scripts/test` starts, found through the environment.
///
/// Under `scripts/test` (`ERRAND_REQUIRE_LIVE=1`) a missing server is a failure; under a bare
/// `swift test` the live tests are skipped with the reason.
package enum LiveServer {
    package static let environment = ProcessInfo.processInfo.environment

    /// httpbin, served by gunicorn.
    package static let httpbin: URL? = environment["ERRAND_HTTPBIN_URL"].flatMap(URL.init(string:))
    /// The fault server in `Tests/Support/fault_server.py`.
    package static let fault: URL? = environment["ERRAND_FAULT_URL"].flatMap(URL.init(string:))
    /// The token server in `Tests/Support/token_server.py`.
    package static let token: URL? = environment["ERRAND_TOKEN_URL"].flatMap(URL.init(string:))
    /// Whether the servers must be there.
    package static let isRequired = environment["ERRAND_REQUIRE_LIVE"] == "1"

    /// Run live tests when the server is configured, or when it is required (they then fail).
    package static var httpbinAvailable: Bool { httpbin != nil || isRequired }
    /// Run token-server tests when the server is configured, or when it is required (they then fail).
    package static var tokenAvailable: Bool { token != nil || isRequired }
    /// Run fault tests when the server is configured, or when it is required (they then fail).
    package static var faultAvailable: Bool { fault != nil || isRequired }

    /// The server's URL, or an error that fails the test when it is not configured.
    package static func require(_ url: URL?, _ variable: String) throws -> URL {
        guard let url else { throw Missing(variable: variable) }
        return url
    }

    /// Thrown when a required server's variable is not set.
    package struct Missing: Error, CustomStringConvertible {
        package let variable: String
        package var description: String { "\(variable) is not set: run the suite with scripts/test" }
    }

    package static let skipReason: Testing.Comment =
        "no ERRAND_HTTPBIN_URL / ERRAND_FAULT_URL / ERRAND_TOKEN_URL: run scripts/test to start the servers"
}
