import ErrandTestSupport
import Foundation
import Testing

@testable import Errand
@testable import ErrandPolicies

/// Freshness and age (RFC 9111 §4.2) on a hand-set clock, and what is stored (§3).
@Suite struct CacheFreshnessTests {
    static let url = CacheDispatcherTests.url

    /// Sends the same GET at each offset (seconds after the first) and says which were hits.
    static func hits(
        _ headers: HTTPHeaders, status: Int = 200, request: RequestData = .get(url),
        at offsets: [TimeInterval]
    ) async throws -> [Bool] {
        let time = ManualTime()
        let server = InMemoryDispatcher()
        server.stub(.get, url, response: .status(status, headers: headers, body: Data("body".utf8)))
        let cache = server.caching(now: time.now)
        _ = try await cache.dispatch(request)
        var hits: [Bool] = []
        var elapsed: TimeInterval = 0
        for offset in offsets {
            time.advance(offset - elapsed)
            elapsed = offset
            hits.append(try await cache.dispatch(request).cacheStatus == .hit)
        }
        return hits
    }

    static func date(_ offset: TimeInterval) -> String {
        HTTPDate.format(ManualTime().date.addingTimeInterval(offset))
    }

    @Test func anAgeHeaderCountsTowardsTheAge() async throws {
        // Given max-age=60 and an Age of 50 on arrival, only 10 s of freshness are left
        #expect(
            try await Self.hits(["Cache-Control": "max-age=60", "Age": "50"], at: [9, 11]) == [true, false])
    }

    @Test func aDateInThePastCountsAsApparentAge() async throws {
        // Given a Date 30 s before the response arrived
        let headers: HTTPHeaders = ["Cache-Control": "max-age=60", "Date": Self.date(-30)]
        #expect(try await Self.hits(headers, at: [29, 31]) == [true, false])
    }

    @Test func expiresMinusDateIsTheLifetime() async throws {
        // Given Expires 100 s after Date
        let headers: HTTPHeaders = ["Date": Self.date(0), "Expires": Self.date(100)]
        #expect(try await Self.hits(headers, at: [99, 101]) == [true, false])
    }

    @Test func maxAgeWinsOverExpiresAndSMaxAgeIsIgnored() async throws {
        let headers: HTTPHeaders = [
            "Date": Self.date(0), "Expires": Self.date(1000), "Cache-Control": "s-maxage=1000, max-age=10",
        ]
        #expect(try await Self.hits(headers, at: [9, 11]) == [true, false])
    }

    @Test func anInvalidExpiresMeansAlreadyExpired() async throws {
        let headers: HTTPHeaders = ["Date": Self.date(0), "Expires": "0", "ETag": "\"x\""]
        #expect(try await Self.hits(headers, at: [0, 1]) == [false, false])
    }

    @Test func heuristicFreshnessIsATenthOfTheTimeSinceLastModified() async throws {
        // Given a Last-Modified 1000 s before Date and no explicit expiry: 100 s of freshness
        let headers: HTTPHeaders = ["Date": Self.date(0), "Last-Modified": Self.date(-1000)]
        #expect(try await Self.hits(headers, at: [99, 101]) == [true, false])
    }

    @Test func heuristicFreshnessIsCappedAtOneDay() async throws {
        let headers: HTTPHeaders = ["Date": Self.date(0), "Last-Modified": Self.date(-100 * 86_400)]
        #expect(try await Self.hits(headers, at: [86_399, 86_401]) == [true, false])
    }

    @Test func heuristicFreshnessOnlyForHeuristicallyCacheableStatuses() async throws {
        // Given a 201 with a Last-Modified and an explicit private, there is no heuristic lifetime
        let headers: HTTPHeaders = [
            "Date": Self.date(0), "Last-Modified": Self.date(-1000), "Cache-Control": "private",
        ]
        #expect(try await Self.hits(headers, status: 201, at: [1]) == [false])
    }

    @Test func storesOnlyCacheableStatusesOrExplicitFreshness() async throws {
        #expect(try await Self.hits(["Cache-Control": "max-age=60"], status: 404, at: [1]) == [true])
        #expect(try await Self.hits(["Last-Modified": Self.date(-1000)], status: 500, at: [1]) == [false])
        #expect(try await Self.hits(["Cache-Control": "max-age=60"], status: 500, at: [1]) == [true])
        #expect(try await Self.hits(["Cache-Control": "max-age=60"], status: 206, at: [1]) == [false])
    }

    @Test func aRequestWithAuthorizationIsStoredOnlyWhenTheResponseAllowsIt() async throws {
        let request = RequestData.get(Self.url).header("Authorization", "Bearer t")
        #expect(try await Self.hits(["Cache-Control": "max-age=60"], request: request, at: [1]) == [false])
        #expect(
            try await Self.hits(["Cache-Control": "public, max-age=60"], request: request, at: [1]) == [true])
        #expect(
            try await Self.hits(["Cache-Control": "max-age=60, must-revalidate"], request: request, at: [1])
                == [true])
        #expect(
            try await Self.hits(["Cache-Control": "s-maxage=60, max-age=60"], request: request, at: [1]) == [
                true
            ])
    }

    @Test func hostileCacheControlValuesNeverCrashAndReadConservatively() async throws {
        // Garbage and negative max-age are stale at once; a huge one is clamped, not trapped on
        #expect(try await Self.hits(["Cache-Control": "max-age=abc", "ETag": "\"e\""], at: [0]) == [false])
        #expect(try await Self.hits(["Cache-Control": "max-age=-1", "ETag": "\"e\""], at: [0]) == [false])
        let huge: HTTPHeaders = [
            "Cache-Control": "max-age=99999999999999999999", "Age": "99999999999999999999",
        ]
        #expect(try await Self.hits(huge, at: [1]) == [false])
        #expect(
            try await Self.hits(["Cache-Control": "max-age=99999999999999999999"], at: [86_400 * 3650]) == [
                true
            ])
        // Directives ignore case, and every Cache-Control field counts
        let split = HTTPHeaders([
            .init(name: "Cache-Control", value: "public"), .init(name: "cache-control", value: "MAX-AGE=60"),
        ])
        #expect(try await Self.hits(split, at: [59, 61]) == [true, false])
    }
}
