import Errand
import Foundation

/// How long a stored response stays fresh and how old it is, as RFC 9111 §4.2 computes them for
/// a private cache.
///
/// - Freshness lifetime (§4.2.1): `max-age`; else `Expires` minus `Date` (an `Expires` that is
///   not a valid HTTP date means already expired); else a heuristic. `s-maxage` is for shared
///   caches and is ignored.
/// - Heuristic freshness (§4.2.2): only when the response has no explicit expiry, its status is
///   heuristically cacheable (``heuristicallyCacheableStatuses``) and it has a `Last-Modified`
///   earlier than its `Date`: 10% of the time between them, at most one day
///   (``maximumHeuristicLifetime``). Anything else gets no heuristic freshness (it is stored
///   only when it can be revalidated, and revalidated before each use).
/// - Current age (§4.2.3): `apparent_age = max(0, response_time - date_value)`,
///   `corrected_age_value = age_value + (response_time - request_time)`,
///   `current_age = max(apparent_age, corrected_age_value) + (now - response_time)`.
enum CacheFreshness {
    /// The status codes RFC 9110 §15.1 defines as heuristically cacheable.
    static let heuristicallyCacheableStatuses: Set<Int> = [
        200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501,
    ]

    /// The most a heuristic lifetime may be: one day, past which RFC 7234 asked for a warning.
    static let maximumHeuristicLifetime: TimeInterval = 86_400

    /// The share of the time since `Last-Modified` that a heuristic lifetime takes.
    static let heuristicFraction = 0.1

    /// What freshness needs from a stored response's headers, read once when it is stored or
    /// updated, so that answering from the store parses nothing.
    struct Facts: Hashable, Sendable {
        /// How long the response is fresh for after it was generated, in seconds (never negative).
        let lifetime: TimeInterval
        /// The `Date` of the response, or when it arrived when it has no valid one.
        let dateValue: Date
        /// The `Age` the response arrived with, in seconds.
        let ageValue: Int
        /// Whether the response says `no-cache`.
        let noCache: Bool

        init(statusCode: Int, headers: HTTPHeaders, responseTime: Date) {
            let control = CacheControl(headers)
            let date = headers["Date"].flatMap { HTTPDate.parse($0, now: responseTime) } ?? responseTime
            dateValue = date
            ageValue = headers["Age"].flatMap { CacheControl.deltaSeconds($0.trimmingWhitespace()) } ?? 0
            noCache = control.noCache
            lifetime = Self.lifetime(statusCode: statusCode, headers: headers, control: control, date: date)
        }

        private static func lifetime(statusCode: Int, headers: HTTPHeaders, control: CacheControl, date: Date)
            -> TimeInterval
        {
            if let maxAge = control.maxAge { return TimeInterval(maxAge) }
            if let expires = headers["Expires"] {
                // An invalid Expires, such as "0", means already expired (§5.3).
                guard let expiry = HTTPDate.parse(expires, now: date) else { return 0 }
                return max(0, expiry.timeIntervalSince(date))
            }
            guard heuristicallyCacheableStatuses.contains(statusCode),
                let modified = headers["Last-Modified"].flatMap({ HTTPDate.parse($0, now: date) }),
                modified < date
            else { return 0 }
            return min(date.timeIntervalSince(modified) * heuristicFraction, maximumHeuristicLifetime)
        }
    }

    /// How long `entry` is fresh for after it was generated, in seconds (never negative).
    static func lifetime(of entry: CachedResponse) -> TimeInterval {
        entry.freshness.lifetime
    }

    /// How old `entry` is at `now`, in seconds (§4.2.3).
    static func currentAge(of entry: CachedResponse, now: Date) -> TimeInterval {
        let apparentAge = max(0, entry.responseTime.timeIntervalSince(entry.freshness.dateValue))
        let responseDelay = max(0, entry.responseTime.timeIntervalSince(entry.requestTime))
        let correctedAgeValue = TimeInterval(entry.freshness.ageValue) + responseDelay
        let residentTime = max(0, now.timeIntervalSince(entry.responseTime))
        return max(apparentAge, correctedAgeValue) + residentTime
    }

    /// Whether `entry` may answer `request` at `now` without asking the server: it is fresh,
    /// nothing demands revalidation (`no-cache` on either side, or a request `max-age` it is
    /// older than), and it is fresh for the request's `min-fresh` still.
    static func isFresh(_ entry: CachedResponse, for request: CacheControl, age: TimeInterval) -> Bool {
        if entry.freshness.noCache || request.noCache { return false }
        if let maxAge = request.maxAge, maxAge == 0 || age > TimeInterval(maxAge) { return false }
        let needed = TimeInterval(request.minFresh ?? 0)
        return lifetime(of: entry) > age + needed
    }
}
