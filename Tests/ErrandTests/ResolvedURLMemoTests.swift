import Foundation
import Testing

@testable import Errand

/// The transport resolves and parses the URL of a query-less path once, and never keeps one
/// with a query.
@Suite struct ResolvedURLMemoTests {
    static let base = URL(string: "https://api.test/v1")
    static let remembered = URL(fileURLWithPath: "/remembered")

    /// A memo that already holds `remembered` for `/a`: a request that reads it goes there.
    static func seededMemo() -> PathMemo<URL> {
        let memo = PathMemo<URL>()
        _ = memo.value(for: "/a") { remembered }
        return memo
    }

    @Test func aQuerylessPathIsTakenFromTheMemo() throws {
        let memo = Self.seededMemo()
        let sent = try RequestData.get("/a").urlRequest(baseURL: Self.base, timeout: 5, urls: memo)
        #expect(sent.url == Self.remembered)
    }

    @Test func aPathWithAQueryOrAFragmentIsResolvedInFullAndNotKept() throws {
        let memo = Self.seededMemo()
        let withItems = RequestData.get("/a").query("access_token", "secret")
        let inPath = RequestData.get("/a?access_token=secret")
        let withFragment = RequestData.get("/a#top")

        #expect(
            try withItems.urlRequest(baseURL: Self.base, timeout: 5, urls: memo).url?.absoluteString
                == "https://api.test/v1/a?access_token=secret")
        #expect(
            try inPath.urlRequest(baseURL: Self.base, timeout: 5, urls: memo).url?.absoluteString
                == "https://api.test/v1/a?access_token=secret")
        #expect(
            try withFragment.urlRequest(baseURL: Self.base, timeout: 5, urls: memo).url?.absoluteString
                == "https://api.test/v1/a")
        // Nothing with the secret was kept under any path.
        #expect(memo.value(for: "/a?access_token=secret") { nil } == nil)
        #expect(memo.value(for: "/a") { nil } == Self.remembered)
    }

    @Test func aRememberedURLIsTheOneResolvingGives() throws {
        let memo = PathMemo<URL>()
        let first = try RequestData.get("users/7").urlRequest(baseURL: Self.base, timeout: 5, urls: memo)
        let again = try RequestData.get("users/7").urlRequest(baseURL: Self.base, timeout: 5, urls: memo)
        let unmemoised = try RequestData.get("users/7").urlRequest(baseURL: Self.base, timeout: 5)
        #expect(first.url == unmemoised.url && again.url == unmemoised.url)
        #expect(again.url?.absoluteString == "https://api.test/v1/users/7")
    }

    @Test func aPathThatCannotBeSentIsRefusedEachTimeAndNothingIsKept() {
        let memo = PathMemo<URL>()
        for _ in 0..<2 {
            #expect(throws: NetworkError.self) {
                try RequestData.get("/a b\u{0}").urlRequest(
                    baseURL: URL(string: "https://bad host"), timeout: 5, urls: memo)
            }
        }
        #expect(memo.value(for: "/a b\u{0}") { nil } == nil)
    }

    @Test func aBaseURLWithAQueryGetsNoMemo() {
        #expect(URLSessionDispatcher.memo(for: URL(string: "https://api.test/v1?key=secret")) == nil)
        #expect(URLSessionDispatcher.memo(for: URL(string: "https://api.test/v1#part")) == nil)
        #expect(URLSessionDispatcher.memo(for: URL(string: "https://api.test/v1")) != nil)
        #expect(URLSessionDispatcher.memo(for: nil) != nil)
    }
}
