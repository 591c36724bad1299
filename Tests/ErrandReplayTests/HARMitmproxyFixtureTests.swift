import ErrandReplay
import Foundation
import Testing

/// Reads the real mitmproxy 11 capture of httpbin and checks what a replay will rely on.
@Suite struct HARMitmproxyFixtureTests {
    let har: HAR

    init() throws {
        har = try HAR(contentsOf: Fixtures.url("mitmproxy-httpbin.har"))
    }

    @Test func readsAllTwentyEntriesInRecordedOrder() {
        // Given the capture, When read, Then every entry is there in order.
        #expect(har.entries.count == 20)
        #expect(har.log.creator == HAR.Creator(name: "mitmproxy", version: "11.0.2", comment: ""))
        #expect(har.log.pages.isEmpty)
        let methods = har.entries.map(\.request.method)
        #expect(methods.prefix(4) == ["GET", "POST", "GET", "GET"])
        #expect(methods[15] == "HEAD")
        #expect(har.entries[13].request.url == "http://127.0.0.1:8089/delete?id=7")
        #expect(har.entries.map(\.startedDateTime) == har.entries.map(\.startedDateTime).sorted())
    }

    @Test func parsesQueryItemsFromTheURL() {
        let request = har.entries[0].request
        #expect(
            request.queryItems == [
                HAR.QueryItem(name: "x", value: "1"), HAR.QueryItem(name: "y", value: "two words"),
            ])
        #expect(request.queryString.map(\.value) == ["1", "two words"])
        #expect(request.urlWithoutQuery == "http://127.0.0.1:8089/get")
        #expect(har.entries[16].request.queryItems.map(\.name) == ["via", "proxyDict"])
    }

    @Test func decodesTheSixtyFourRandomBytesExactly() throws {
        let body = try #require(har.entries[2].response.body)
        let expected: [UInt8] = [
            2, 97, 136, 237, 0, 122, 78, 1, 178, 68, 84, 82, 247, 166, 143, 183, 11, 93, 18, 22, 75, 119, 52,
            83,
            137, 11, 61, 254, 72, 162, 62, 9, 40, 132, 91, 160, 83, 110, 109, 55, 140, 68, 61, 137, 163, 87,
            58, 100,
            120, 218, 82, 187, 227, 171, 236, 85, 201, 159, 38, 68, 59, 134, 12, 130,
        ]
        #expect(Array(body) == expected)
        #expect(har.entries[2].response.content.mimeType == "application/octet-stream")
    }

    @Test func correctsTheStaleHeadersOfTheGzipEntries() throws {
        // mitmproxy stores the decoded body but keeps Content-Encoding and the wire length;
        // the reader drops the encoding and sets the length of the body it holds.
        let response = har.entries[4].response
        let text = try #require(response.content.text)
        #expect(text.contains("\"gzipped\": true"))
        #expect(response.body?.count == 257)
        #expect(response.value(forHeader: "content-encoding") == nil)
        #expect(response.value(forHeader: "Content-Length") == "257")
        #expect(har.entries[19].response.value(forHeader: "Content-Length") == "341")
        #expect(har.entries[19].response.value(forHeader: "Content-Encoding") == nil)
        #expect(response.content.size == 196)
        #expect(response.content.compression == 61)
    }

    @Test func readsTheHeadAndTheNoContentResponsesWithEmptyBodies() {
        let head = har.entries[15]
        #expect(head.request.method == "HEAD")
        #expect(head.response.body == Data())
        #expect(head.response.value(forHeader: "Content-Length") == "221")
        let noContent = har.entries[12].response
        #expect(noContent.status == 204)
        #expect(noContent.statusText == "NO CONTENT")
        #expect(noContent.body?.isEmpty == true)
    }

    @Test func decodesLatin1BinaryUploadsToTheBytesSent() throws {
        let everyByte = Data((0...255).map { UInt8($0) })
        #expect(har.entries[7].request.body == everyByte)
        #expect(har.entries[18].request.body == everyByte)
        let multipart = try #require(har.entries[6].request.body)
        #expect(multipart.count == 557)
        #expect(multipart.range(of: everyByte) != nil)
    }

    @Test func everyRequestBodyHasItsContentLength() throws {
        // The strongest check of the Latin-1 rule: the decoded length is the length sent.
        let withBodies = har.entries.filter { $0.request.postData != nil }
        #expect(withBodies.count == 6)
        for entry in withBodies {
            let length = try #require(entry.request.value(forHeader: "content-length").flatMap { Int($0) })
            #expect(entry.request.body?.count == length, "\(entry.request.url)")
        }
    }

    @Test func everyResponseBodyHasItsContentLength() throws {
        // Every response but the HEAD and the 204 (no Content-Length); the gzip ones corrected.
        let plain = har.entries.filter { $0.request.method != "HEAD" && $0.response.status != 204 }
        #expect(plain.count == 18)
        for entry in plain {
            let length = try #require(entry.response.value(forHeader: "Content-Length").flatMap { Int($0) })
            #expect(entry.response.body?.count == length, "\(entry.request.url)")
        }
    }

    @Test func readsFormJSONAndUTF8Bodies() {
        let form = har.entries[5].request
        #expect(form.postData?.text == "a=1+2&b=x%26y")
        #expect(
            form.postData?.params == [HAR.Param(name: "a", value: "1 2"), HAR.Param(name: "b", value: "x&y")])
        #expect(form.contentType == "application/x-www-form-urlencoded")
        #expect(har.entries[1].request.postData?.text == #"{"name":"swift","n":42,"u":"caf\u00e9"}"#)
        #expect(har.entries[14].response.body?.count == 14_239)
        #expect(har.entries[14].response.content.text?.contains("∮ E⋅da = Q") == true)
    }

    @Test func readsRedirectsImagesAndCredentials() throws {
        let redirect = har.entries[8].response
        #expect(redirect.status == 302)
        #expect(redirect.redirectURL == "/get")
        #expect(redirect.value(forHeader: "location") == "/get")
        let png = try #require(har.entries[9].response.body)
        #expect(png.count == 8_090)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(har.entries[10].request.value(forHeader: "AUTHORIZATION") == "Bearer tok")
        #expect(har.entries[11].request.cookies.map(\.value) == ["abc", "dark"])
        #expect(har.entries[11].response.cookies.first?.path == "/")
    }

    @Test func readsTheStartDateWithMicroseconds() {
        let expected = Date(timeIntervalSince1970: 1_796_006_276.693_553)
        #expect(abs(har.entries[0].startedDateTime.timeIntervalSince(expected)) < 0.000_001)
        #expect(har.entries[0].timings.ssl == nil)
        #expect(har.entries[0].timings.connect == 0.716_209_411_621_093_8)
        #expect(har.entries[0].serverIPAddress == "127.0.0.1")
    }
}
