import Errand
import Foundation

/// The measurement of one request as seen by a ``MeasuringDispatcher``: what it was, how it
/// ended, how long it took and how many bytes it moved.
///
/// Where the measuring policy sits in the chain decides what one metric covers. Outside a retry
/// policy, one metric covers all attempts of a call (its duration includes the backoff waits);
/// inside it, every attempt is a metric of its own.
public struct RequestMetric: Hashable, Sendable {
    /// The HTTP method.
    public var method: HTTPMethod
    /// The request's path (or absolute URL) without its query or fragment, so query values
    /// (which may be credentials) never reach a sink; an absolute URL's user info is shown as
    /// `<redacted>` (`https://<redacted>@host/users/42`).
    public var path: String
    /// The route the request belongs to, for grouping: what the measuring policy's `template`
    /// closure named, else ``path``. By default numeric and UUID path segments read `{id}`, so
    /// `/users/42` and `/users/7` both count as `/users/{id}`.
    public var template: String
    /// The response's status code, when there was a response (also for a failure that kept one).
    public var statusCode: Int?
    /// The error's code, when the request failed; `nil` when a response came back.
    public var errorCode: NetworkError.Code?
    /// When the request was handed to the measuring policy (wall-clock time).
    public var start: Date
    /// How long the request took, from being handed to the measuring policy to its callback, on
    /// the policy's clock.
    public var duration: Duration
    /// The body bytes sent (the encoded body; headers are not counted).
    public var bytesSent: Int
    /// The body bytes received (after decompression; headers are not counted).
    public var bytesReceived: Int
    /// How many times the request was sent beneath the measuring policy, as far as the chain
    /// reports it.
    ///
    /// The count of a retry policy beneath: `NetworkResponse.attempts` for a response,
    /// `NetworkError.attempts` for a failure. Measure inside the retry policy to see each
    /// attempt as a metric of its own.
    public var attempts: Int
    /// Whether a cache answered instead of the network: the response's
    /// `NetworkResponse.isFromCache`, set by a ``CachingDispatcher`` beneath (a hit, or a 304
    /// that revalidated the stored response).
    public var servedFromCache: Bool

    /// Creates a metric.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - path: The path without its query.
    ///   - template: The route the request belongs to; the path when `nil`.
    ///   - statusCode: The response's status code, if any.
    ///   - errorCode: The error's code, if the request failed.
    ///   - start: When the request started.
    ///   - duration: How long it took.
    ///   - bytesSent: The body bytes sent.
    ///   - bytesReceived: The body bytes received.
    ///   - attempts: How many times it was sent.
    ///   - servedFromCache: Whether a cache answered.
    public init(
        method: HTTPMethod, path: String, template: String? = nil, statusCode: Int? = nil,
        errorCode: NetworkError.Code? = nil, start: Date, duration: Duration, bytesSent: Int = 0,
        bytesReceived: Int = 0, attempts: Int = 1, servedFromCache: Bool = false
    ) {
        self.method = method
        self.path = path
        self.template = template ?? path
        self.statusCode = statusCode
        self.errorCode = errorCode
        self.start = start
        self.duration = duration
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
        self.attempts = attempts
        self.servedFromCache = servedFromCache
    }

    /// Whether the request counts as failed in an error rate: it failed for a reason other than
    /// being cancelled, or the server answered with a 5xx. A 4xx is the server's answer to the
    /// client, and a cancellation is the caller's choice; neither counts.
    public var isFailure: Bool {
        if let errorCode, errorCode != .cancelled { return true }
        return (statusCode ?? 0) >= 500
    }

    /// The request's path without its query, its numeric and UUID segments written `{id}`:
    /// `/users/42/orders?page=2` gives `/users/{id}/orders`. The measuring policy's default
    /// template. An absolute URL's user info is shown as `<redacted>`.
    ///
    /// - Parameter request: The request to name.
    /// - Returns: The route template.
    public static func numericSegmentsAsID(_ request: RequestData) -> String? {
        let path = pathWithoutQuery(request.path)
        // Most paths have no identifier: found by one pass over the bytes, with nothing built.
        guard mayHoldIdentifier(path) else { return path }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return segments.map { segment in
            isIdentifier(segment) ? "{id}" : String(segment)
        }
        .joined(separator: "/")
    }

    /// `path` up to its query or fragment, its user info (a credential) redacted.
    static func pathWithoutQuery(_ path: String) -> String {
        // On the bytes: `Character` iteration is slow, and this runs for every request.
        let cut = path.utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
        return withoutUserInfo(cut.map { String(path[..<$0]) } ?? path)
    }

    /// `text` with the user info of a URL in it shown as the placeholder, as everywhere a URL
    /// is shown: a template a closure made from the request's path is no place for it either.
    static func withoutUserInfo(_ text: String) -> String {
        SecretVocabulary.default.redactingUserInfo(ofURL: text)
    }

    /// Whether a segment of `path` is all ASCII digits or 36 bytes long (a UUID's length): what
    /// every identifier has.
    private static func mayHoldIdentifier(_ path: String) -> Bool {
        var length = 0
        var digitsOnly = true
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                if length == 36 || (length > 0 && digitsOnly) { return true }
                length = 0
                digitsOnly = true
            } else {
                length += 1
                digitsOnly = digitsOnly && byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            }
        }
        return length == 36 || (length > 0 && digitsOnly)
    }

    private static func isIdentifier(_ segment: Substring) -> Bool {
        guard !segment.isEmpty else { return false }
        if segment.allSatisfy(\.isASCIIDigit) { return true }
        return segment.count == 36 && UUID(uuidString: String(segment)) != nil
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
