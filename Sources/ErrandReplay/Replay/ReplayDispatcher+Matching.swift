import Errand
import Foundation

extension ReplayDispatcher {
    /// Which recordings answer a request.
    ///
    /// A recording answers a request when all of these hold:
    ///
    /// 1. The same method, and the same URL: scheme, host and port (unless ``ignoresHost``),
    ///    path, and query items. Query items are compared as a sorted list of decoded pairs, so
    ///    their order and their percent-encoding do not matter (`+` counts as a space); the
    ///    items named in ``ignoredQueryItems`` are left out.
    /// 2. The same body, compared by content type (unless ``comparesBody`` is off): JSON by
    ///    meaning (key order, spacing and number spelling do not matter), without the parts
    ///    named in ``ignoredBodyPaths``; form fields as a set of name–value pairs; multipart
    ///    bodies byte for byte apart from the boundary, which is random per request; anything
    ///    else byte for byte.
    /// 3. The same values of the headers named in ``headers`` (none by default).
    /// 4. Every matcher in ``matchers`` accepts it.
    ///
    /// Secrets are redacted from the request before it is compared, the way they were when
    /// the cassette was written, so a request with a real token matches its redacted recording.
    /// Rule 1 is a lookup in an index, so the time to find a recording does not grow with the
    /// size of the cassette.
    public struct Matching: Sendable {
        /// Whether the scheme, host and port are left out, so a cassette recorded against one
        /// server answers requests to another; `false` by default.
        public var ignoresHost: Bool
        /// Query items left out of the comparison, by exact name: timestamps, nonces, cache busters.
        public var ignoredQueryItems: Set<String>
        /// Parts of JSON bodies left out of the comparison, such as `meta.timestamp`,
        /// `items[*].nonce` or `*.requestId`; a plain name also leaves out that form field.
        public var ignoredBodyPaths: Set<String>
        /// Whether bodies are compared; `true` by default.
        public var comparesBody: Bool
        /// Header names whose values must be equal, in any case; empty by default.
        public var headers: Set<String>
        /// Further tests, all of which must accept a recording.
        public var matchers: [Matcher]

        /// Creates matching rules; with no arguments, the defaults.
        ///
        /// - Parameters:
        ///   - ignoresHost: Whether scheme, host and port are left out.
        ///   - ignoredQueryItems: Query item names left out.
        ///   - ignoredBodyPaths: JSON paths (and form field names) left out.
        ///   - comparesBody: Whether bodies are compared.
        ///   - headers: Header names whose values must be equal.
        ///   - matchers: Further tests, all of which must pass.
        public init(
            ignoresHost: Bool = false, ignoredQueryItems: Set<String> = [],
            ignoredBodyPaths: Set<String> = [],
            comparesBody: Bool = true, headers: Set<String> = [], matchers: [Matcher] = []
        ) {
            self.ignoresHost = ignoresHost
            self.ignoredQueryItems = ignoredQueryItems
            self.ignoredBodyPaths = ignoredBodyPaths
            self.comparesBody = comparesBody
            self.headers = headers
            self.matchers = matchers
        }
    }

    /// A test of a recording against a request, written as a closure; matchers compose with
    /// ``and(_:)``, ``or(_:)`` and ``negated()``.
    ///
    /// Both requests are HAR requests: the one being sent with its absolute URL and its
    /// secrets redacted, and the recorded one as the cassette holds it.
    ///
    /// ```swift
    /// let sameTenant = ReplayDispatcher.Matcher("same tenant") { request, recorded in
    ///     request.value(forHeader: "X-Tenant") == recorded.value(forHeader: "X-Tenant")
    /// }
    /// configuration.matching.matchers = [sameTenant.and(.header("Accept-Language"))]
    /// ```
    public struct Matcher: Sendable, CustomStringConvertible {
        /// The name shown when the matcher turns a recording down.
        public let name: String
        private let test: @Sendable (HAR.Request, HAR.Request) -> Bool

        /// Creates a matcher.
        ///
        /// - Parameters:
        ///   - name: The name a miss message shows.
        ///   - test: Whether `recorded` may answer `request`.
        public init(
            _ name: String,
            _ test: @escaping @Sendable (_ request: HAR.Request, _ recorded: HAR.Request) -> Bool
        ) {
            self.name = name
            self.test = test
        }

        /// Whether the recording may answer the request.
        ///
        /// - Parameters:
        ///   - request: The request being sent, redacted, with its absolute URL.
        ///   - recorded: The recorded request.
        /// - Returns: What the closure says.
        public func matches(_ request: HAR.Request, _ recorded: HAR.Request) -> Bool {
            test(request, recorded)
        }

        /// A matcher that accepts what both accept.
        ///
        /// - Parameter other: The second matcher, asked only when this one accepts.
        /// - Returns: The combined matcher.
        public func and(_ other: Matcher) -> Matcher {
            Matcher("\(grouped) and \(other.grouped)") { test($0, $1) && other.test($0, $1) }
        }

        /// A matcher that accepts what either accepts.
        ///
        /// - Parameter other: The second matcher, asked only when this one refuses.
        /// - Returns: The combined matcher.
        public func or(_ other: Matcher) -> Matcher {
            Matcher("\(grouped) or \(other.grouped)") { test($0, $1) || other.test($0, $1) }
        }

        /// A matcher that accepts what this one refuses.
        public func negated() -> Matcher {
            Matcher("not (\(name))") { !test($0, $1) }
        }

        /// A matcher that wants the same values of a header, in the same order.
        ///
        /// - Parameter name: The header name, in any case.
        /// - Returns: The matcher, named `header X`.
        public static func header(_ name: String) -> Matcher {
            Matcher("header \(name)") { $0.values(forHeader: name) == $1.values(forHeader: name) }
        }

        /// The matcher's name, on one line, escaped (a header name comes from the caller).
        public var description: String { EscapedText.line(name) }

        /// The name, in parentheses when it joins others with `and` or `or`.
        private var grouped: String {
            name.contains(" and ") || name.contains(" or ") ? "(\(name))" : name
        }
    }
}

/// ``ReplayDispatcher/Matching`` prepared for use: paths parsed, names lower-cased.
struct MatchRules: Sendable {
    let ignoresHost: Bool
    let ignoredQueryItems: Set<String>
    let ignoredBodyPaths: [ReplayJSONPath]
    let ignoredFormFields: Set<String>
    let comparesBody: Bool
    let headers: [String]
    let matchers: [ReplayDispatcher.Matcher]

    init(_ matching: ReplayDispatcher.Matching) {
        ignoresHost = matching.ignoresHost
        ignoredQueryItems = matching.ignoredQueryItems
        ignoredBodyPaths = matching.ignoredBodyPaths.sorted().map(ReplayJSONPath.init)
        ignoredFormFields = Set(ignoredBodyPaths.compactMap(\.singleKey))
        comparesBody = matching.comparesBody
        headers = matching.headers.map(HARCaseInsensitive.key).sorted()
        matchers = matching.matchers
    }

    /// Whether the headers and the matchers accept `recorded` for `request`.
    func acceptsHeadersAndMatchers(_ request: HAR.Request, _ recorded: HAR.Request) -> Bool {
        headers.allSatisfy { request.values(forHeader: $0) == recorded.values(forHeader: $0) }
            && matchers.allSatisfy { $0.matches(request, recorded) }
    }
}
