import Errand
import Foundation

/// The absolute URLs of the paths a ``FlightRecorder`` sees, each resolved once.
///
/// Only URLs with no query at all (in the path, the request's items, or the base URL) and no
/// user info (in the path or the base URL) are kept, so nothing a redaction would hide is ever
/// held here: the kept entries hold the same text.
struct ResolvedURLs: Sendable {
    private let baseURL: URL?
    private let memo = PathMemo<String>()

    init(baseURL: URL?) {
        self.baseURL = baseURL
    }

    /// The absolute URL of `request`, when it has no query and no user info; `nil` when it must
    /// be resolved in full and redacted.
    func url(of request: RequestData) -> String? {
        guard request.query.isEmpty, !request.path.hasQueryOrFragment else { return nil }
        return memo.value(for: request.path) {
            guard let url = try? request.resolvedURL(relativeTo: baseURL).absoluteString,
                !url.hasQueryOrFragment, SecretVocabulary.userInfo(inURL: url) == nil
            else { return nil }
            return url
        }
    }
}
