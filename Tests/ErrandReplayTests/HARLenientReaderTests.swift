import ErrandReplay
import Foundation
import Testing

/// Reads the shapes real exporters write: Chrome, Firefox, Charles, Proxyman, mitmproxy.
@Suite struct HARLenientReaderTests {
    @Test func keepsChromeHTTP2PseudoHeadersButLeavesThemOutOfMatching() throws {
        // Given a Chrome HTTP/2 export
        let har = try HAR(contentsOf: Fixtures.url("chrome-http2.har"))
        // When reading the first request
        let request = har.entries[0].request
        // Then the pseudo-headers are kept, flagged, and absent from the matchable headers
        #expect(request.headers.count == 7)
        #expect(
            request.headers.filter(\.isPseudoHeader).map(\.name) == [
                ":authority", ":method", ":path", ":scheme",
            ])
        #expect(request.matchableHeaders.map(\.name) == ["accept", "accept-encoding", "x-request-id"])
        #expect(request.value(forHeader: ":path") == "/v1/users?page=2&sort=name")
        #expect(request.httpVersion == "http/2.0")
    }

    @Test func looksUpLowerCaseHeaderNamesInAnyCase() throws {
        let har = try HAR(contentsOf: Fixtures.url("chrome-http2.har"))
        let response = har.entries[0].response
        #expect(response.value(forHeader: "Content-Type") == "application/json; charset=utf-8")
        #expect(response.value(forHeader: "VARY") == "Accept-Encoding")
        #expect(response.values(forHeader: "Set-Cookie") == ["a=1; Path=/", "b=2; Path=/"])
        #expect(response.value(forHeader: "X-Missing") == nil)
        #expect(response.headers[0].hasName("CoNtEnT-TyPe"))
    }

    @Test func keepsMinusOneSizesAndIgnoresUnderscoreFields() throws {
        let har = try HAR(contentsOf: Fixtures.url("chrome-http2.har"))
        let entry = har.entries[0]
        #expect(entry.request.headersSize == -1)
        #expect(entry.response.headersSize == -1)
        #expect(entry.response.bodySize == -1)
        #expect(entry.response.error == nil)
        #expect(entry.connection == "443")
        #expect(entry.pageref == "page_1")
        #expect(entry.timings.blocked == 3.01)
        #expect(entry.timings.dns == nil)
        #expect(entry.time == 48.33)
        #expect(har.log.pages.first?.pageTimings.onLoad == 803.1)
        #expect(entry.response.content.text == #"[{"id":3,"name":"Ada"},{"id":4,"name":"Zoë Müller"}]"#)
        #expect(entry.request.queryItems.map(\.value) == ["2", "name"])
    }

    @Test func keepsAChromeFailedRequestWithStatusZeroAndItsError() throws {
        let har = try HAR(contentsOf: Fixtures.url("chrome-http2.har"))
        let failed = har.entries[2]
        #expect(failed.response.status == 0)
        #expect(failed.response.error == "net::ERR_CONNECTION_REFUSED")
        #expect(failed.isFailure)
        #expect(failed.response.body == nil)
        #expect(!har.entries[0].isFailure)
    }

    @Test func readsAnEntryLevelErrorAndIgnoresCustomFields() throws {
        // Given a Proxyman-style export with `_error` on the entry and other `_` fields
        let har = try HAR(contentsOf: Fixtures.url("failed-request.har"))
        let entry = try #require(har.entries.first)
        // Then the failure is kept with its reason
        #expect(entry.response.status == 0)
        #expect(entry.response.error == "The request timed out.")
        #expect(entry.isFailure)
        #expect(entry.timings.receive == 0)
        #expect(entry.timings.dns == 1.5)
        #expect(entry.response.bodySize == -1)
    }

    @Test func fillsFirefoxMissingOptionalFieldsWithDefaults() throws {
        // Given a Firefox-style export without cookies, queryString, cache, postData, pages
        let har = try HAR(contentsOf: Fixtures.url("firefox-minimal.har"))
        #expect(har.log.pages.isEmpty)
        #expect(har.log.browser?.name == "Firefox")
        let first = har.entries[0]
        #expect(first.request.cookies.isEmpty)
        #expect(first.request.queryString.isEmpty)
        #expect(first.request.postData == nil)
        #expect(first.request.body == nil)
        #expect(first.cache == HAR.Cache())
        #expect(first.timings == HAR.Timings(send: 0, wait: 55, receive: 6))
        #expect(first.response.redirectURL == "")
        #expect(first.response.cookies.isEmpty)
        #expect(first.request.bodySize == -1)
        // Then content without text has no body, and the query comes from the URL
        #expect(first.response.content.body == nil)
        #expect(first.response.content.size == 1_024)
        #expect(
            first.request.queryItems == [
                HAR.QueryItem(name: "q", value: "café"), HAR.QueryItem(name: "lang", value: ""),
            ])
        let second = har.entries[1]
        #expect(second.timings == HAR.Timings())
        #expect(second.time == 0)
        #expect(second.request.headersSize == -1)
        #expect(second.request.bodySize == -1)
        #expect(second.request.httpVersion == "HTTP/1.1")
        #expect(second.response.content.mimeType == "")
        #expect(second.response.body == Data())
    }

    @Test func decodesBase64BodiesWrappedUnpaddedAndInAnyCase() throws {
        let har = try HAR(contentsOf: Fixtures.url("base64-bodies.har"))
        let png = try #require(har.entries[0].response.body)
        #expect(Array(png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        #expect(png.count == 16)
        let everyByte = Data((0...255).map { UInt8($0) })
        #expect(har.entries[1].request.body == everyByte)
        #expect(har.entries[1].response.body == everyByte)
        #expect(har.entries[2].response.content.text == "hello!!")
        #expect(try HAR(contentsOf: Fixtures.url("chrome-http2.har")).entries[1].response.body?.count == 12)
    }

    @Test func decodesMitmproxyLatin1RequestBodies() throws {
        let har = try HAR(contentsOf: Fixtures.url("mitmproxy-latin1.har"))
        let bodies = har.entries.map { $0.request.body ?? Data() }
        #expect(Array(bodies[0]) == [0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF, 0x10, 0x80, 0x7F, 0x0A])
        #expect(bodies[1] == Data("café ☕".utf8))
        #expect(Array(bodies[2]) == [0x63, 0x61, 0x66, 0xE9])
        #expect(bodies[3] == Data(#"{"u":"café"}"#.utf8))
    }

    @Test(arguments: [
        (0, "2024-01-31T12:00:00.000Z"),
        (1, "2024-01-31T12:00:00.500Z"),
        (2, "2024-01-31T12:00:00.123Z"),
        (3, "2024-01-31T12:00:00.123Z"),
        (4, "2024-01-31T12:00:00.123Z"),
        (5, "2024-01-31T12:00:00.123Z"),
        (6, "2024-01-31T12:00:00.123Z"),
        (7, "2024-01-31T12:00:00.123Z"),
        (8, "2024-01-31T12:00:00.000Z"),
    ])
    func readsEveryDateFormatToTheSameInstant(index: Int, normalised: String) throws {
        // Given dates with 0 to 9 fractional digits and offsets Z, z, +00:00, +01:00, +0530, -08:00, +02
        let har = try HAR(contentsOf: Fixtures.url("dates.har"))
        let noon = Date(timeIntervalSince1970: 1_706_702_400)
        // When read, Then each is the same instant (to the millisecond) and writes normalised
        let date = har.entries[index].startedDateTime
        #expect(abs(date.timeIntervalSince(noon) - fraction(of: normalised)) < 0.000_5)
        let written = try String(
            decoding: HAR(log: HAR.Log(creator: har.log.creator, entries: [har.entries[index]])).encoded(),
            as: UTF8.self)
        #expect(written.contains("\"startedDateTime\": \"\(normalised)\""))
    }

    @Test func skipsAByteOrderMarkAndAcceptsWholeNumbersWrittenAsDecimals() throws {
        // Given a file with a UTF-8 BOM, sizes written as 12.0 and a numeric comment
        let json = """
            {"log": {"creator": {"name": "tool", "version": 2}, "comment": 7, "entries": [{
              "startedDateTime": "2024-01-31T12:00:00Z",
              "request": {"method": "GET", "url": "https://a.example/", "headersSize": 12.0, "bodySize": 0.0},
              "response": {"status": 200.0, "content": {"size": 3.0, "text": "abc"}}
            }]}}
            """
        let har = try HAR(data: Data([0xEF, 0xBB, 0xBF]) + Data(json.utf8))
        // Then it reads, with defaults for everything left out
        #expect(har.log.version == "1.2")
        #expect(har.log.creator.version == "2")
        #expect(har.log.comment == "7")
        #expect(har.entries[0].request.headersSize == 12)
        #expect(har.entries[0].response.status == 200)
        #expect(har.entries[0].response.statusText == "")
        #expect(har.entries[0].response.httpVersion == "")
        #expect(har.entries[0].response.body == Data("abc".utf8))
    }

    private func fraction(of normalised: String) -> Double {
        guard let dot = normalised.firstIndex(of: "."),
            let value = Double("0" + normalised[dot...].dropLast())
        else {
            return 0
        }
        return value
    }
}
