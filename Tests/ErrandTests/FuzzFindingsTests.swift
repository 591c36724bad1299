import Errand
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
}
