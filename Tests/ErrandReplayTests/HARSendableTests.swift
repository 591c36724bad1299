import ErrandReplay
import Foundation
import Testing

/// Every public type crosses task boundaries, so the `Sendable` claims are exercised.
@Suite struct HARSendableTests {
    @Test func passesEveryPublicTypeToADetachedTask() async throws {
        // Given values of every public type
        let har = try HAR(contentsOf: Fixtures.url("chrome-http2.har"))
        let log: HAR.Log = har.log
        let entry: HAR.Entry = har.entries[0]
        let page: HAR.Page = try #require(har.log.pages.first)
        let pageTimings: HAR.PageTimings = page.pageTimings
        let creator: HAR.Creator = har.log.creator
        let request: HAR.Request = har.entries[1].request
        let response: HAR.Response = entry.response
        let content: HAR.Content = response.content
        let postData: HAR.PostData = try #require(request.postData)
        let param = HAR.Param(name: "a", value: "1")
        let header: HAR.Header = request.headers[0]
        let query = HAR.QueryItem(name: "q", value: "1")
        let cookie = HAR.Cookie(name: "c", value: "v")
        let cache = HAR.Cache(beforeRequest: HAR.CacheEntry(eTag: "x"))
        let timings: HAR.Timings = entry.timings
        let redaction = HAR.Redaction.default
        let error = HARError(code: .notJSON, reason: "test")
        // When used from a detached task
        let summary = await Task.detached {
            [
                "\(har.entries.count) \(log.version) \(entry.time) \(page.id) \(pageTimings.onLoad ?? 0)",
                "\(creator.name) \(request.method) \(response.status) \(content.size) \(postData.mimeType)",
                "\(param.name) \(header.isPseudoHeader) \(query.name) \(cookie.name) \(cache.beforeRequest?.eTag ?? "")",
                "\(timings.total) \(redaction.placeholder) \(error.code)",
            ].joined(separator: " | ")
        }.value
        // Then they arrive intact
        #expect(summary.hasPrefix("3 1.2 48.33 page_1 803.1 | WebInspector POST 200 54 application/json"))
        #expect(summary.hasSuffix("| 48.33 <redacted> notJSON"))
    }
}
