import Errand
import ErrandSync
import Foundation

/// The absolute URLs of the paths a ``FlightRecorder`` sees, each resolved once: an app asks for
/// the same few paths again and again, and resolving one builds and parses a `URL`.
///
/// Only paths with no query at all (in the path, the request's items, or the base URL) are kept,
/// so nothing a redaction would hide is ever held here: the kept entries hold the same text.
final class ResolvedURLs: Sendable {
    /// How many paths are kept before the memo starts again, so an app that makes paths up (an
    /// identifier in each) does not grow it without end.
    static let limit = 256

    private let baseURL: URL?
    private let urls = Locked<[String: String]>([:])

    init(baseURL: URL?) {
        self.baseURL = baseURL
    }

    /// The absolute URL of `request`, when it has no query; `nil` when it must be resolved in full.
    func url(of request: RequestData) -> String? {
        guard request.query.isEmpty, !Self.hasQueryOrFragment(request.path) else { return nil }
        if let known = urls.withLock({ $0[request.path] }) { return known }
        guard let url = try? request.resolvedURL(relativeTo: baseURL).absoluteString,
            !Self.hasQueryOrFragment(url)
        else { return nil }
        urls.withLock { urls in
            if urls.count >= Self.limit { urls.removeAll(keepingCapacity: true) }
            urls[request.path] = url
        }
        return url
    }

    private static func hasQueryOrFragment(_ text: String) -> Bool {
        text.utf8.contains { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
    }
}
