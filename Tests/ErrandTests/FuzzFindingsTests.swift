import Errand
import ErrandPolicies
import ErrandTestSupport
import Foundation
import Testing

/// Inputs that `scripts/fuzz` found breaking a property, fed to the same code path as the fuzz
/// target that found them.
@Suite struct FuzzFindingsTests {
    /// The `url` target's input `ht\u{1}`, base `tps://héole/a b/%z=xf1#?zrag`, query `("", "a=d")`:
    /// the path and the query were written after the base URL's fragment, so they were never sent.
    @Test func aBaseURLFragmentDoesNotSwallowThePathAndQuery() throws {
        // Given the fuzzer's base URL, which has a fragment
        let base = try #require(URL(string: "tps://h\u{e9}ole/a b/%z=xf1#?zrag"))
        // When a request with a path and a query is resolved against it
        let url = try RequestData.get("ht\u{1}").query("", "a=d").url(relativeTo: base)
        // Then the fragment is dropped and the path and query are the URL's own
        #expect(url.fragment == nil)
        #expect(url.path(percentEncoded: true).hasSuffix("/ht%01"))
        #expect(url.query(percentEncoded: true) == "=a%3Dd")
    }

    @Test func aBaseURLQueryIsKeptAfterThePathAndBeforeTheRequestsQuery() throws {
        // Given a base URL that carries a query, as some APIs want on every call
        let base = try #require(URL(string: "https://api.example.com/v1/?api-version=2#top"))
        // When requests with and without their own query are resolved against it
        let search = try RequestData.get("/search?sort=new").query("q", "swift").url(relativeTo: base)
        let user = try RequestData.get("users/1").url(relativeTo: base)
        let parent = try RequestData.get("../v2/users").url(relativeTo: base)
        // Then the path joins the base's path and the base's query comes first
        #expect(search.absoluteString == "https://api.example.com/v1/search?api-version=2&sort=new&q=swift")
        #expect(user.absoluteString == "https://api.example.com/v1/users/1?api-version=2")
        #expect(parent.absoluteString == "https://api.example.com/v2/users?api-version=2")
    }

    /// The `cache` target's input with `Retry-After: W \u{6db}\u{FFFD}…t 2015 078:0:20 GMT` (bytes
    /// that are not UTF-8, read with replacement characters): reading it as a date stopped the
    /// program inside `DateFormatter`.
    @Test func aRetryAfterThatIsNoDateIsIgnoredAndTheBackoffIsUsed() async throws {
        let garbled = String(
            decoding: [0x57, 0x20, 0xDB, 0x9B, 0x9A, 0xCD, 0xCE, 0xDF, 0xB0, 0x9C, 0x74] as [UInt8],
            as: UTF8.self)
        let waits = try await Self.waitsBeforeTheRetry(
            retryAfter: " \(garbled) 2015 078:0:20 GMT", now: Date(timeIntervalSince1970: 1_800_000_000))
        // Not taken for a date: the retry waited the policy's backoff
        #expect(waits == [.seconds(1)])
    }

    @Test func retryAfterDatesAreReadInAllThreeFormsAndAPastDateWaitsNothing() async throws {
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        for (value, expected) in [
            ("Sun, 06 Nov 1994 08:50:37 GMT", Duration.seconds(60)),
            ("Sunday, 06-Nov-94 08:50:37 GMT", .seconds(60)),
            ("Sun Nov  6 08:50:37 1994", .seconds(60)),
            ("Sat, 05 Nov 1994 08:49:37 GMT", .zero),
        ] {
            #expect(try await Self.waitsBeforeTheRetry(retryAfter: value, now: now) == [expected], "\(value)")
        }
    }

    /// What a retry policy waited before its one retry of a 503 carrying `retryAfter`, at `now`.
    private static func waitsBeforeTheRetry(retryAfter: String, now: Date) async throws -> [Duration] {
        let server = InMemoryDispatcher()
        server.stub(
            .get, "/busy", responses: [.status(503, headers: ["Retry-After": retryAfter]), .text("ok")])
        let policy = RetryPolicy(
            maximumAttempts: 2,
            backoff: .init(base: .seconds(1), multiplier: 2, maximum: .seconds(30), jitter: .none))
        let clock = RecordingClock()
        let response = try await server.retrying(policy, clock: clock, now: { now }).dispatch(.get("/busy"))
        #expect(response.statusCode == 200 && response.attempts == 2)
        return clock.sleeps
    }
}
