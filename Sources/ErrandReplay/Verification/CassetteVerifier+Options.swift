import Errand
import Foundation

extension CassetteVerifier {
    /// What a verification sends and what it compares.
    ///
    /// ```swift
    /// let options = CassetteVerifier.Options {
    ///     $0.baseURL = URL(string: "https://staging.example.com")
    ///     $0.ignoredBodyPaths = ["origin", "headers.X-Amzn-Trace-Id"]
    ///     $0.headers = ["Content-Type"]
    ///     $0.sendsNotIdempotent = [4]  // entry 4 is a POST that staging may receive
    /// }
    /// ```
    public struct Options: Sendable {
        /// Where the recorded requests go: its scheme, host and port replace those of every
        /// recorded URL, which keeps its path and query. `nil` (the default) sends each request
        /// to its recorded URL. The base URL's own path is not used.
        public var baseURL: URL?
        /// Response headers whose values must be the same, in any case; none by default.
        public var headers: Set<String>
        /// Parts of JSON bodies left out of the comparison, written as for
        /// ``ReplayDispatcher/Matching/ignoredBodyPaths``: `origin`, `items[*].nonce`,
        /// `*.updatedAt`. Values are never compared anyway; list what may come and go.
        public var ignoredBodyPaths: Set<String>
        /// Whether bodies that are not JSON must be byte for byte the same; `false` by default.
        public var comparesOtherBodies: Bool
        /// The entries, by index from 0, whose method is not idempotent (`POST`, `PATCH`, …)
        /// and that are sent nonetheless. Every other such entry is skipped, since sending it
        /// may change the server's state.
        public var sendsNotIdempotent: Set<Int>
        /// The deadline of each request in seconds; `nil` uses the dispatcher's default.
        public var timeout: TimeInterval?
        /// Turns an entry's request into the one sent, after the base URL is applied: point
        /// it at another path, add a query item, drop a body. Returning `nil` skips the entry.
        /// `nil` (the default) sends every request as recorded.
        public var mapRequest: (@Sendable (_ entry: Int, _ request: RequestData) -> RequestData?)?
        /// The placeholder the cassette's secrets were written as; a recorded header holding it
        /// is not sent, so the dispatcher (an interceptor, the auth policy) can set the real one.
        public var redactionPlaceholder: String

        /// Creates the default options.
        public init() {
            baseURL = nil
            headers = []
            ignoredBodyPaths = []
            comparesOtherBodies = false
            sendsNotIdempotent = []
            timeout = nil
            mapRequest = nil
            redactionPlaceholder = SecretVocabulary.defaultPlaceholder
        }

        /// Creates options by adjusting the default ones.
        ///
        /// - Parameter configure: Changes to make to the default options.
        public init(_ configure: (inout Options) -> Void) {
            self.init()
            configure(&self)
        }

        /// Creates options that ignore what a replay's matching ignores.
        ///
        /// The JSON paths of ``ReplayDispatcher/Matching/ignoredBodyPaths`` are left out of
        /// response bodies too: what varies in a request usually varies in its echo.
        ///
        /// - Parameters:
        ///   - matching: The matching rules the cassette replays with.
        ///   - configure: Further changes.
        public init(matching: ReplayDispatcher.Matching, _ configure: (inout Options) -> Void = { _ in }) {
            self.init()
            ignoredBodyPaths = matching.ignoredBodyPaths
            configure(&self)
        }
    }
}
