import Errand
import Foundation
import Testing

/// How a request's path becomes the URL on the wire: sent as written, escaped only where it must be.
@Suite struct RequestURLTests {
    static let base = URL(string: "https://api.example.com/v1")

    /// Characters that may not appear raw in a URL, and their one escape.
    static let mustEscape: [(raw: String, escaped: String)] = [
        ("[", "%5B"), ("]", "%5D"), ("{", "%7B"), ("}", "%7D"), ("|", "%7C"), ("^", "%5E"), ("\"", "%22"),
        (" ", "%20"), ("<", "%3C"), (">", "%3E"), ("\\", "%5C"), ("`", "%60"), ("é", "%C3%A9"),
        ("日本", "%E6%97%A5%E6%9C%AC"),
    ]

    @Test(arguments: mustEscape)
    func escapesACharacterOnceAndKeepsTheEscapesBesideIt(raw: String, escaped: String) throws {
        // Given each character alone and beside existing escapes, in paths and queries,
        // absolute and relative
        let cases: [(path: String, base: URL?, expected: String)] = [
            ("http://h.test/p\(raw)", nil, "http://h.test/p\(escaped)"),
            ("http://h.test/a%2Fb\(raw)%20", nil, "http://h.test/a%2Fb\(escaped)%20"),
            ("http://h.test/ping?x=\(raw)", nil, "http://h.test/ping?x=\(escaped)"),
            ("http://h.test/ping?p=%2F&x=\(raw)%3D", nil, "http://h.test/ping?p=%2F&x=\(escaped)%3D"),
            ("/p\(raw)", Self.base, "https://api.example.com/v1/p\(escaped)"),
            ("/a%2F\(raw)%25", Self.base, "https://api.example.com/v1/a%2F\(escaped)%25"),
            ("/s?q=\(raw)", Self.base, "https://api.example.com/v1/s?q=\(escaped)"),
            ("s?q=%26\(raw)&r=%2f", Self.base, "https://api.example.com/v1/s?q=%26\(escaped)&r=%2f"),
        ]
        for (path, base, expected) in cases {
            // When the URL is built
            let url = try RequestData.get(path).url(relativeTo: base)
            // Then only the raw character is escaped, once
            #expect(url.absoluteString == expected, "path \(path)")
        }
    }

    @Test func aURLWithExistingEscapesIsSentAsWritten() throws {
        // Given a browser URL whose query holds escapes and raw brackets
        let request = RequestData.get("http://h.test/ping?p=%2F&x=[1]")
        // When it is built, Then the escapes stay and only the brackets are escaped
        #expect(try request.url(relativeTo: nil).absoluteString == "http://h.test/ping?p=%2F&x=%5B1%5D")
    }

    @Test(arguments: [
        ("/p?p=100%", "https://api.example.com/v1/p?p=100%25"),
        ("/p?p=%zz", "https://api.example.com/v1/p?p=%25zz"),
        ("/p?p=%2", "https://api.example.com/v1/p?p=%252"),
        ("/100%/x", "https://api.example.com/v1/100%25/x"),
        ("/a%2fb?c=%7e", "https://api.example.com/v1/a%2fb?c=%7e"),
    ])
    func aPercentWithoutTwoHexDigitsIsEscaped(path: String, expected: String) throws {
        #expect(try RequestData.get(path).url(relativeTo: Self.base).absoluteString == expected)
    }

    @Test func reservedCharactersThatMayStayAreNotEscaped() throws {
        // Given a path with every character RFC 3986 allows in paths and queries
        let path = "/a-._~!$&'()*+,;=:@/b?c=d/e?f&g=h+i"
        // When it is built, Then it is unchanged
        #expect(
            try RequestData.get(path).url(relativeTo: Self.base).absoluteString
                == "https://api.example.com/v1" + path)
    }

    @Test(arguments: [
        ("/anything/a#frag", "https://api.example.com/v1/anything/a?k=v"),
        ("/anything/a?x=1#frag", "https://api.example.com/v1/anything/a?x=1&k=v"),
        ("/anything/a#frag?x=1", "https://api.example.com/v1/anything/a?k=v"),
        ("https://h.test/a#top", "https://h.test/a?k=v"),
        ("/anything/a?#frag", "https://api.example.com/v1/anything/a?k=v"),
    ])
    func aFragmentIsDroppedAndQueryItemsGoWhereItWas(path: String, expected: String) throws {
        // Given a path with a fragment, When a query item is added
        let url = try RequestData.get(path).query("k", "v").url(relativeTo: Self.base)
        // Then the fragment is not sent and the item is
        #expect(url.absoluteString == expected)
    }

    @Test func aFragmentAloneIsDropped() throws {
        #expect(
            try RequestData.get("/a#frag").url(relativeTo: Self.base).absoluteString
                == "https://api.example.com/v1/a")
    }

    @Test func aHashInAQueryItemIsEscaped() throws {
        let url = try RequestData.get("/a").query("tag", "#swift").url(relativeTo: Self.base)
        #expect(url.absoluteString == "https://api.example.com/v1/a?tag=%23swift")
    }

    @Test(arguments: ["http://exa mple.com/x", "http:///x", "http://#x", "http://a\"b/x", "http://a<b>/x"])
    func aURLWithoutAValidHostIsInvalid(path: String) {
        // Given an absolute URL whose host cannot be sent
        // When it is built, Then it is refused with invalidRequest
        #expect(throws: NetworkError.self) { try RequestData.get(path).url(relativeTo: nil) }
        do {
            _ = try RequestData.get(path).url(relativeTo: nil)
        } catch let error as NetworkError {
            #expect(error.code == .invalidRequest)
        } catch {
            Issue.record("unexpected error: \(error)")
        }
    }

    @Test func anInternationalHostNameIsSentAsPunycode() throws {
        let url = try RequestData.get("https://bücher.example/x?q=é").url(relativeTo: nil)
        #expect(url.absoluteString == "https://xn--bcher-kva.example/x?q=%C3%A9")
    }

    @Test(arguments: [
        ("/a/b/../c", "https://api.example.com/v1/a/c"),
        ("/a/./b/.", "https://api.example.com/v1/a/b/"),
        ("../x?y=1", "https://api.example.com/x?y=1"),
        ("../../../x", "https://api.example.com/x"),
        ("/a/..b/.c/...", "https://api.example.com/v1/a/..b/.c/..."),
        ("http://h.test/a/b/../../c", "http://h.test/c"),
        ("http://h.test/..", "http://h.test/"),
    ])
    func dotSegmentsAreResolvedAsCurlSendsThem(path: String, expected: String) throws {
        #expect(try RequestData.get(path).url(relativeTo: Self.base).absoluteString == expected)
    }
}
