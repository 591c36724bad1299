import Foundation

extension InMemoryDispatcher {
    /// A rule that answers matching requests with canned responses.
    public struct Stub: Sendable, CustomStringConvertible {
        /// What a stub does once it has served all its responses.
        public enum Exhaustion: Sendable, Hashable {
            /// Keep answering with the last response.
            case repeatLast
            /// Fail with `unmatchedRequest`, to catch a request sent more often than expected.
            case fail
        }

        /// The method a request must have.
        public var method: HTTPMethod
        /// The path a request must have; a `*` segment matches any one segment. Query items
        /// written here (`/users?page=2`) must all be present in the request with these values.
        public var path: String
        /// A further test of the request, for bodies, headers or anything else.
        public var matcher: (@Sendable (RequestData) -> Bool)?
        /// The responses, served in turn.
        public var responses: [Response]
        /// What happens once the responses are used up.
        public var whenExhausted: Exhaustion

        /// Creates a stub.
        ///
        /// - Parameters:
        ///   - method: The method a request must have.
        ///   - path: The path a request must have, optionally with required query items.
        ///   - matcher: A further test of the request; `nil` accepts any.
        ///   - responses: The responses, served in turn.
        ///   - whenExhausted: What happens once they are used up; repeat the last by default.
        public init(
            _ method: HTTPMethod, _ path: String, where matcher: (@Sendable (RequestData) -> Bool)? = nil,
            responses: [Response], whenExhausted: Exhaustion = .repeatLast
        ) {
            self.method = method
            self.path = path
            self.matcher = matcher
            self.responses = responses
            self.whenExhausted = whenExhausted
        }

        /// The method and path, with a note when it has a matcher: on one line, escaped, the
        /// path's secret query values and user info shown as the placeholder.
        public var description: String {
            let shownPath = RequestData.descriptionVocabulary.redactingQuery(ofURL: path)
            return "\(method) \(EscapedText.line(shownPath))" + (matcher == nil ? "" : " (with a matcher)")
        }
    }
}

/// A stub as the dispatcher keeps it: its path parsed once, and how many responses it served.
struct StubEntry {
    let stub: InMemoryDispatcher.Stub
    /// `nil` when the stub's path cannot be read (an absolute URL without a valid host): it matches nothing.
    let target: StubTarget?
    var served = 0

    init(stub: InMemoryDispatcher.Stub) {
        self.stub = stub
        self.target = try? StubTarget(path: stub.path)
    }

    /// Whether the stub answers `request`, whose path and query are `requestTarget`.
    func matches(_ requestTarget: StubTarget, _ request: RequestData) -> Bool {
        guard let target else { return false }
        return stub.method == request.method && target.accepts(requestTarget)
            && (stub.matcher?(request) ?? true)
    }
}

/// A path as segments plus query items, for matching stubs to requests.
///
/// Read by ``WireURL``, as `URLSessionDispatcher` reads it, so a path means the same to both:
/// `/a b`, `/a%20b` and `https://host/a%20b` are one path, `/a/../b` is `/b`, and a fragment
/// is ignored.
struct StubTarget {
    let segments: [Substring]
    let query: [URLQueryItem]

    /// The target of a stub's path, `/users/*?page=2`.
    init(path: String) throws(WireURL.Unreadable) {
        try self.init(pathAndQuery: path, extraQuery: [])
    }

    /// The target of a request: its path (the URL's path for an absolute URL) and all its query items.
    init(_ request: RequestData) throws(WireURL.Unreadable) {
        try self.init(pathAndQuery: request.path, extraQuery: request.query)
    }

    private init(pathAndQuery: String, extraQuery: [URLQueryItem]) throws(WireURL.Unreadable) {
        let parts = try WireURL.read(pathAndQuery)
        let path =
            WireURL.hasDotSegment(parts.path) ? WireURL.removingDotSegments("/" + parts.path) : parts.path
        segments = path.split(separator: "/")
        let written = parts.query.map(PercentEncoding.queryItems(in:)) ?? []
        query = written.isEmpty ? extraQuery : written + extraQuery
    }

    /// The path as written, `/a/b`.
    var path: String { "/" + segments.joined(separator: "/") }

    /// Whether a stub with this target accepts a request with `request`'s target.
    func accepts(_ request: StubTarget) -> Bool {
        segments.count == request.segments.count
            && zip(segments, request.segments).allSatisfy { $0 == "*" || $0 == $1 }
            && query.allSatisfy { request.query.contains($0) }
    }
}

extension RequestData {
    /// The request's path and query as stubs match them, or `invalidRequest` when it cannot be read.
    func stubTarget() throws(NetworkError) -> StubTarget {
        do {
            return try StubTarget(self)
        } catch {
            throw NetworkError(
                code: .invalidRequest,
                message: "The path \(Self.shownRedacted(path)) cannot be sent: \(error.reason).",
                request: self)
        }
    }
}
