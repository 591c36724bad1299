import Testing

@testable import Errand
@testable import ErrandPolicies

/// Reading `Cache-Control` robustly: case, quotes, garbage, huge numbers, several fields.
@Suite struct CacheControlTests {
    static func control(_ values: String...) -> CacheControl {
        CacheControl(HTTPHeaders(values.map { HTTPHeaders.Field(name: "Cache-Control", value: $0) }))
    }

    @Test func readsDirectivesIgnoringCaseAndSpaces() {
        let control = Self.control(" Max-Age = 60 ,NO-CACHE,  Private ")
        #expect(control.maxAge == 60)
        #expect(control.noCache && control.isPrivate)
        #expect(!control.noStore)
    }

    @Test func aCommaInsideAQuotedValueDoesNotSplit() {
        let control = Self.control("no-cache=\"Set-Cookie, no-store\", max-age=\"30\"")
        #expect(control.noCache)
        #expect(!control.noStore)
        #expect(control.directives["no-cache"] == .some("Set-Cookie, no-store"))
        #expect(control.maxAge == 30)
    }

    @Test func everyFieldCountsAndTheFirstOccurrenceWins() {
        let control = Self.control("public", "max-age=10", "max-age=99")
        #expect(control.isPublic)
        #expect(control.maxAge == 10)
    }

    @Test func invalidSecondsReadAsZeroAndHugeOnesAreClamped() {
        #expect(Self.control("max-age=abc").maxAge == 0)
        #expect(Self.control("max-age=-1").maxAge == 0)
        #expect(Self.control("max-age=1.5").maxAge == 0)
        #expect(Self.control("max-age=").maxAge == 0)
        #expect(Self.control("max-age").maxAge == 0)
        #expect(Self.control("max-age=99999999999999999999").maxAge == CacheControl.maximumSeconds)
        #expect(Self.control("s-maxage=120").sharedMaxAge == 120)
    }

    @Test func garbageNeverStopsTheReading() {
        // An unterminated quote swallows the rest of its field, not the next field
        let unterminated = Self.control("no-cache=\"unterminated, max-age=5", "max-age=7")
        #expect(unterminated.noCache && unterminated.maxAge == 7)
        let after = Self.control("=oops,,\u{0}, \t, no-store")
        #expect(after.noStore)
        #expect(Self.control("").directives.isEmpty)
    }
}
