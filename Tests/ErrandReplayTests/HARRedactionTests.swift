import Foundation
import Testing

@testable import ErrandReplay

/// Secrets never reach a cassette in clear: redaction is on by default when writing.
@Suite struct HARRedactionTests {
    @Test func hidesCredentialsAndCookiesOfARealCaptureByDefault() throws {
        // Given the mitmproxy capture, which holds a bearer token and cookies
        let har = try HAR(contentsOf: Fixtures.url("mitmproxy-httpbin.har"))
        // When written with the default redaction
        let written = try har.encoded()
        // Then none of the secrets are in the bytes
        for secret in [
            "Bearer tok", "session=abc; theme=dark", "k=v; Path=/", "\"abc\"", "\"dark\"", "\"tok\"",
        ] {
            #expect(!written.contains(secret), "\(secret) leaked")
        }
        let reread = try HAR(data: written)
        #expect(reread.entries[10].request.value(forHeader: "Authorization") == "<redacted>")
        #expect(reread.entries[11].request.value(forHeader: "Cookie") == "<redacted>")
        #expect(reread.entries[11].request.cookies.map(\.value) == ["<redacted>", "<redacted>"])
        #expect(reread.entries[11].request.cookies.map(\.name) == ["session", "theme"])
        #expect(reread.entries[11].response.value(forHeader: "Set-Cookie") == "<redacted>")
        #expect(reread.entries[11].response.cookies.map(\.value) == ["<redacted>"])
        #expect(
            reread.entries[10].response.content.text
                == "{\n  \"authenticated\": true,\n  \"token\": \"<redacted>\"\n}\n")
        // Everything else is untouched
        #expect(reread.entries[0] == har.entries[0].withStartRoundedToMilliseconds())
    }

    @Test func writesEverythingWithRedactionNone() throws {
        let har = try HAR(contentsOf: Fixtures.url("mitmproxy-httpbin.har"))
        let written = try har.encoded(redaction: .none)
        #expect(written.contains("Bearer tok"))
        #expect(written.contains("session=abc; theme=dark"))
        #expect(!HAR.Redaction.none.isEnabled)
        #expect(HAR.Redaction.default.isEnabled)
    }

    @Test func hidesProxyAuthorizationAndHeadersInAnyCase() throws {
        let har = Self.archive(headers: [
            HAR.Header(name: "proxy-authorization", value: "Basic cHJveHk6c2VjcmV0"),
            HAR.Header(name: "AUTHORIZATION", value: "Basic dXNlcjpwYXNz"),
            HAR.Header(name: "Accept", value: "*/*"),
        ])
        let written = try har.encoded()
        #expect(!written.contains("cHJveHk6c2VjcmV0"))
        #expect(!written.contains("dXNlcjpwYXNz"))
        #expect(try HAR(data: written).entries[0].request.value(forHeader: "Accept") == "*/*")
    }

    @Test func hidesSecretQueryItemsInTheURLTheListAndRedirects() throws {
        // Given a request and a redirect that carry tokens in their queries
        var har = Self.archive(url: "https://api.example.com/cb?code=1&access_token=abc%20def&page=2#frag")
        har.entries[0].request.headers.append(HAR.Header(name: ":path", value: "/cb?API_KEY=k123&page=2"))
        har.entries[0].response.redirectURL = "https://app.example.com/done?token=t0k"
        har.entries[0].response.headers.append(HAR.Header(name: "Location", value: "/done?token=t0k"))
        // When redacted
        let redacted = har.redacted()
        let request = redacted.entries[0].request
        // Then the values are replaced and everything else is kept byte for byte
        #expect(request.url == "https://api.example.com/cb?code=1&access_token=%3Credacted%3E&page=2#frag")
        #expect(request.queryItems.map(\.value) == ["1", "<redacted>", "2"])
        #expect(request.queryString.map(\.value) == ["1", "<redacted>", "2"])
        #expect(request.value(forHeader: ":path") == "/cb?API_KEY=%3Credacted%3E&page=2")
        #expect(
            redacted.entries[0].response.redirectURL == "https://app.example.com/done?token=%3Credacted%3E")
        #expect(redacted.entries[0].response.value(forHeader: "location") == "/done?token=%3Credacted%3E")
        let written = try har.encoded()
        #expect(!written.contains("abc%20def"))
        #expect(!written.contains("t0k"))
        #expect(!written.contains("k123"))
    }

    @Test func anUntypedBodyThatReadsAsJSONIsRedactedAsJSON() throws {
        // Given bodies sent and answered without a content type: JSON, and text that is not
        var har = Self.archive(url: "https://api.example.com/login")
        har.entries[0].request.postData = HAR.PostData(
            mimeType: "", text: " \n{\"password\":\"p4ss\",\"id\":1}")
        har.entries[0].response.content = HAR.Content(body: Data("token=t-1".utf8), mimeType: "")
        // When redacted
        let redacted = har.redacted()
        // Then the JSON one is redacted by its keys, and the other kept as it is
        #expect(redacted.entries[0].request.postData?.text == " \n{\"password\":\"<redacted>\",\"id\":1}")
        #expect(redacted.entries[0].response.content.text == "token=t-1")
    }

    @Test func hidesNestedJSONBodyKeysInRequestsAndResponses() throws {
        // Given JSON bodies with secrets at several depths
        let body =
            #"{"user":{"name":"Ada","Password":"p4ss"},"items":[{"api_key":"k-1"},{"id":2}],"id_token":{"a":1}}"#
        var har = Self.archive(url: "https://api.example.com/login")
        har.entries[0].request.postData = HAR.PostData(
            mimeType: "application/json; charset=utf-8", text: body)
        har.entries[0].response.content = HAR.Content(
            body: Data(#"{"access_token":"at-9","refresh_token":"rt-9","expires_in":3600}"#.utf8),
            mimeType: "application/json"
        )
        // When redacted
        let redacted = har.redacted()
        // Then each secret value is replaced, whole objects included, and the rest kept
        let request = try #require(redacted.entries[0].request.postData?.text)
        #expect(
            request
                == #"{"user":{"name":"Ada","Password":"<redacted>"},"items":[{"api_key":"<redacted>"},{"id":2}],"id_token":"<redacted>"}"#
        )
        #expect(
            redacted.entries[0].response.content.text
                == #"{"access_token":"<redacted>","refresh_token":"<redacted>","expires_in":3600}"#
        )
        let written = try har.encoded()
        for secret in ["p4ss", "k-1", "at-9", "rt-9"] {
            #expect(!written.contains(secret), "\(secret) leaked")
        }
    }

    @Test(arguments: [
        (#"{"pass\u0077ord": "x"}"#, #"{"pass\u0077ord": "<redacted>"}"#),
        (
            #"{"note": "\"password\":\"x\"", "password" : "a}b]\"c"}"#,
            #"{"note": "\"password\":\"x\"", "password" : "<redacted>"}"#
        ),
        (#"[{"token": {"a": [1, {"b": "}"}]}}, 2]"#, #"[{"token": "<redacted>"}, 2]"#),
        (#"{"token":12.5e3,"n":1}"#, #"{"token":"<redacted>","n":1}"#),
        (#"{"token":null}"#, #"{"token":"<redacted>"}"#),
        (#"{"password"#, #"{"password"#),
        ("\"token\"", "\"token\""),
    ])
    func replacesOnlyTheValuesOfSecretKeys(body: String, expected: String) {
        var har = Self.archive(url: "https://api.example.com/")
        har.entries[0].request.postData = HAR.PostData(mimeType: "application/json", text: body)
        #expect(har.redacted().entries[0].request.postData?.text == expected)
    }

    @Test func keepsJSONBodiesWithoutSecretsByteForByte() {
        let body = "{ \"b\": 1,\n  \"a\": [true, null, 1.5] }"
        var har = Self.archive(url: "https://api.example.com/")
        har.entries[0].request.postData = HAR.PostData(mimeType: "application/json", text: body)
        #expect(har.redacted().entries[0].request.postData?.text == body)
    }

    @Test func hidesFormBodyFieldsAndParams() {
        var har = Self.archive(url: "https://api.example.com/login")
        har.entries[0].request.postData = HAR.PostData(
            mimeType: "application/x-www-form-urlencoded",
            text: "username=ada&password=s3cr%26t+x&&remember=1",
            params: [
                HAR.Param(name: "username", value: "ada"), HAR.Param(name: "password", value: "s3cr&t x"),
            ]
        )
        let postData = har.redacted().entries[0].request.postData
        #expect(postData?.text == "username=ada&password=%3Credacted%3E&&remember=1")
        #expect(postData?.params.map(\.value) == ["ada", "<redacted>"])
    }

    @Test func hidesConfiguredExtraNamesWithACustomPlaceholder() throws {
        // Given a redaction that adds names to the defaults and changes the placeholder
        let redaction = HAR.Redaction {
            $0.headerNames.insert("X-API-Key")
            $0.queryItemNames.insert("sig")
            $0.bodyKeys.insert("ssn")
            $0.placeholder = "[hidden]"
        }
        var har = Self.archive(
            url: "https://api.example.com/x?sig=abc123&token=t",
            headers: [
                HAR.Header(name: "x-api-key", value: "key-42"),
                HAR.Header(name: "Authorization", value: "Bearer b"),
            ]
        )
        har.entries[0].request.postData = HAR.PostData(
            mimeType: "application/json", text: #"{"ssn":"123-45"}"#)
        // When written
        let reread = try HAR(data: har.encoded(redaction: redaction)).entries[0].request
        // Then the extra names and the defaults are all hidden
        #expect(reread.value(forHeader: "X-Api-Key") == "[hidden]")
        #expect(reread.value(forHeader: "Authorization") == "[hidden]")
        #expect(reread.queryItems.map(\.value) == ["[hidden]", "[hidden]"])
        #expect(reread.postData?.text == #"{"ssn":"[hidden]"}"#)
        #expect(reread.url == "https://api.example.com/x?sig=%5Bhidden%5D&token=%5Bhidden%5D")
    }

    @Test func collectsEveryReplacedValueForAPostWriteScan() throws {
        // Given the capture, When redacted, Then the redactor knows every value it hid
        let har = try HAR(contentsOf: Fixtures.url("mitmproxy-httpbin.har"))
        var redactor = HARRedactor(.default)
        let redacted = redactor.redact(har)
        #expect(
            redactor.secrets == [
                "Bearer tok", "session=abc; theme=dark", "abc", "dark", "k=v; Path=/", "v", "tok",
            ])
        // Redacting again finds nothing new: the placeholder is not a secret
        var again = HARRedactor(.default)
        _ = again.redact(redacted)
        #expect(again.secrets.isEmpty)
    }

    static func archive(url: String = "https://api.example.com/", headers: [HAR.Header] = []) -> HAR {
        let entry = HAR.Entry(
            startedDateTime: Date(timeIntervalSince1970: 0),
            request: HAR.Request(method: "POST", url: url, headers: headers),
            response: HAR.Response(status: 200)
        )
        return HAR(creator: HAR.Creator(name: "test", version: "1"), entries: [entry])
    }
}

extension HAR.Entry {
    /// The entry as it reads back from a file: its start rounded to the millisecond.
    func withStartRoundedToMilliseconds() -> HAR.Entry {
        var entry = self
        let milliseconds = (startedDateTime.timeIntervalSince1970 * 1_000).rounded()
        entry.startedDateTime = Date(timeIntervalSince1970: milliseconds / 1_000)
        return entry
    }
}
