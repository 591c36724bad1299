import Errand

/// How much a logging policy writes about each request.
public enum LogLevel: Int, Comparable, Sendable, CaseIterable {
    /// Nothing; the policy is not even put in the stack.
    case none
    /// One line when a request starts and one when it ends: method, URL, status or error code,
    /// duration and bytes.
    case basic
    /// ``basic`` and the request's and response's headers.
    case headers
    /// ``headers`` and the bodies, truncated; a binary body is shown as its size and type.
    case body

    /// Orders levels from ``none`` to ``body``.
    ///
    /// - Parameters:
    ///   - lhs: A level.
    ///   - rhs: Another level.
    /// - Returns: Whether `lhs` writes less than `rhs`.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One entry written by the logging policy, with what a sink needs to route it.
///
/// At ``LogLevel/basic`` ``text`` is one line; at higher levels the headers and body follow on
/// lines of their own, indented by two spaces. Only the first line starts with the entry's
/// `[errand #N]`, and nothing a caller or a server sends can start a line: control characters
/// in a path, a method, a header or a body are written as escapes (`\r`, `\n`, `\u{1B}`), and
/// every line of a multi-line body keeps the indent.
public struct LogLine: Sendable, Hashable, CustomStringConvertible {
    /// Which moment of a request the entry tells about.
    public enum Event: String, Sendable, Hashable {
        /// The request is about to be sent.
        case request
        /// A response arrived.
        case response
        /// The request failed with a `NetworkError`, or was refused as invalid before it was
        /// sent (its only entry, `[errand #3] refused GET /x: …`).
        case failure
    }

    /// The number that ties a request's entries together, counted per policy from 1.
    public let requestID: Int
    /// The level the policy logs at.
    public let level: LogLevel
    /// Which moment of the request the entry tells about.
    public let event: Event
    /// The text, secrets already redacted: `[errand #12] → GET https://host/x`.
    public let text: String

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - requestID: The request's number within its policy.
    ///   - level: The level the policy logs at.
    ///   - event: Which moment of the request the entry tells about.
    ///   - text: The redacted text.
    public init(requestID: Int, level: LogLevel, event: Event, text: String) {
        self.requestID = requestID
        self.level = level
        self.event = event
        self.text = text
    }

    /// The text.
    public var description: String { text }
}
