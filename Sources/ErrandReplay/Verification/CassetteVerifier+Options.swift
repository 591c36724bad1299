import Errand
import Foundation

extension CassetteVerifier {
    /// What a verification sends and what it compares.
    ///
    /// ```swift
    /// let options = CassetteVerifier.Options {
    ///     $0.baseURL = URL(string: "https://staging.example.com")
    ///     $0.setHeaders = ["Authorization": "Bearer \(stagingToken)"]
    ///     $0.ignoredBodyPaths = ["origin", "headers.X-Amzn-Trace-Id"]
    ///     $0.headers = ["Content-Type"]
    ///     $0.allowsUnsafeEntries = [4]  // entry 4 is a POST that staging may receive
    /// }
    /// ```
    public struct Options: Sendable {
        /// Where the recorded requests go: its scheme, host and port replace those of every
        /// recorded URL, which keeps its path and query. `nil` (the default) sends each request
        /// to its recorded URL. The base URL's own path is not used.
        ///
        /// When the origin (scheme, host and port) of the URL sent, after it and ``mapRequest``,
        /// is not the recorded one, the recorded credentials stay behind: every header and query
        /// item that ``vocabulary`` names (`Authorization`, `Cookie`, `X-API-Key`, `?api_key=`,
        /// `?key=`, …) and the URL's user info are left out, the body's secret values replaced,
        /// and the report lists them in ``VerificationReport/withheld``. Give the other server
        /// its own credentials with ``setHeaders`` or the dispatcher.
        public var baseURL: URL?
        /// Headers set on every request sent, in place of a recorded header of the same name,
        /// whatever the origin: a staging token where the cassette's is redacted or withheld.
        /// None by default.
        public var setHeaders: HTTPHeaders
        /// Response headers whose values must be the same, in any case; none by default.
        public var headers: Set<String>
        /// Parts of JSON bodies left out of the comparison, written as for
        /// ``ReplayDispatcher/Matching/ignoredBodyPaths``: `origin`, `items[*].nonce`,
        /// `*.updatedAt`. Values are never compared anyway; list what may come and go.
        public var ignoredBodyPaths: Set<String>
        /// Whether bodies that are not JSON must be byte for byte the same; `false` by default.
        public var comparesOtherBodies: Bool
        /// Whether entries whose method is not safe are sent: anything but `GET`, `HEAD` and
        /// `OPTIONS` (`POST`, `PUT`, `PATCH`, `DELETE`, custom methods) may change the server's
        /// state, even an idempotent `PUT` or `DELETE`. `false` by default: such entries are
        /// skipped and reported as skipped.
        public var allowsUnsafeMethods: Bool
        /// The entries, by index from 0, whose method is not safe and that are sent
        /// nonetheless; see ``allowsUnsafeMethods``, which sends them all.
        public var allowsUnsafeEntries: Set<Int>
        /// The deadline of each request in seconds; `nil` uses the dispatcher's default.
        public var timeout: TimeInterval?
        /// Turns an entry's request into the one sent, after the base URL is applied and
        /// ``setHeaders`` set: point it at another path, add a query item, drop a body. The
        /// recorded credentials it still carries are left out afterwards when the URL it returns
        /// is at another origin than the recorded one; what it adds is sent. Returning `nil`
        /// skips the entry. `nil` (the default) sends every request as recorded.
        public var mapRequest: (@Sendable (_ entry: Int, _ request: RequestData) -> RequestData?)?
        /// The placeholder the cassette's secrets were written as; a recorded header holding it
        /// is not sent, so the dispatcher (an interceptor, the auth policy) can set the real one.
        public var redactionPlaceholder: String
        /// The names whose values are credentials: withheld from another origin, and shown as
        /// the placeholder in the report's URLs and header values. `SecretVocabulary.default`
        /// unless changed.
        public var vocabulary: SecretVocabulary

        /// Creates the default options.
        public init() {
            baseURL = nil
            setHeaders = [:]
            headers = []
            ignoredBodyPaths = []
            comparesOtherBodies = false
            allowsUnsafeMethods = false
            allowsUnsafeEntries = []
            timeout = nil
            mapRequest = nil
            redactionPlaceholder = SecretVocabulary.defaultPlaceholder
            vocabulary = .default
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

        /// Whether the entry at `index` may be sent with `method`: a safe method always, any
        /// other when opted in.
        func sends(_ method: HTTPMethod, entry index: Int) -> Bool {
            CassetteVerifier.safeMethods.contains(method.rawValue.uppercased()) || allowsUnsafeMethods
                || allowsUnsafeEntries.contains(index)
        }
    }

    /// The methods sent without an opt-in: they only read.
    static let safeMethods: Set<String> = ["GET", "HEAD", "OPTIONS"]
}
