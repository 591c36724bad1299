import Errand
import ErrandReplay
import Foundation
import Testing

/// Which recording answers a request: method and URL, body by content type, headers when asked,
/// custom matchers, and the ignore lists.
@Suite struct ReplayMatchingTests {
    let files: CassetteFolder

    init() throws {
        files = try CassetteFolder()
    }

    /// A replay-only dispatcher over `entries`.
    func replay(
        _ entries: [HAR.Entry], _ configure: (inout ReplayDispatcher.Configuration) -> Void = { _ in }
    ) throws -> ReplayDispatcher {
        try files.write(cassette(entries))
        return ReplayDispatcher(
            cassette: files.cassette, baseURL: testBaseURL, mode: .replayOnly, upstream: ForbiddenUpstream(),
            configuration: testConfiguration(configure))
    }

    @Test func comparesJSONBodiesByMeaningNotSpelling() async throws {
        defer { files.remove() }
        let replay = try replay([
            exchange(
                "POST", "https://api.example.com/users",
                body: #"{"name":"Ada","tags":[1,2.5],"admin":false}"#, answer: "a")
        ])
        // Key order, spacing and number spelling do not matter
        let sent = RequestData.post("/users").body(
            .raw(
                Data(#"{ "admin": false, "tags": [1.0, 25e-1], "name": "Ada" }"#.utf8),
                contentType: "application/json"))
        #expect(await replay.text(sent) == "a")
        // A different value does
        let other = RequestData.post("/users").body(
            .raw(Data(#"{"name":"Ada","tags":[1,2.5],"admin":true}"#.utf8), contentType: "application/json"))
        #expect(await replay.text(other).contains("body key `admin`: false recorded, true sent"))
    }

    @Test func comparesQueryItemsInAnyOrderAndAnyEncoding() async throws {
        defer { files.remove() }
        let replay = try replay([
            exchange(
                "GET", "https://API.example.com:443/search?sort=name&q=caf%C3%A9+au+lait&page=2",
                answer: "found")
        ])
        let sent = RequestData.get("/search").query("page", "2").query("q", "café au lait").query(
            "sort", "name")
        #expect(await replay.text(sent) == "found")
    }

    @Test func leavesOutIgnoredQueryItems() async throws {
        defer { files.remove() }
        let replay = try replay([
            exchange("GET", "https://api.example.com/feed?ts=1&page=2&nonce=a", answer: "feed")
        ]) {
            $0.matching.ignoredQueryItems = ["ts", "nonce"]
        }
        #expect(
            await replay.text(.get("/feed").query("nonce", "zz").query("page", "2").query("ts", "99"))
                == "feed")
    }

    @Test func leavesOutIgnoredJSONPathsAndFormFields() async throws {
        defer { files.remove() }
        let replay = try replay([
            exchange(
                "POST", "https://api.example.com/events",
                body: #"{"meta":{"timestamp":1,"id":"x"},"items":[{"nonce":"a","v":1},{"nonce":"b","v":2}]}"#,
                answer: "json"),
            exchange(
                "POST", "https://api.example.com/form", body: "a=1&csrf=old",
                contentType: "application/x-www-form-urlencoded",
                answer: "form"),
        ]) { $0.matching.ignoredBodyPaths = ["meta.timestamp", "items[*].nonce", "csrf"] }
        let json = #"{"meta":{"timestamp":99,"id":"x"},"items":[{"nonce":"c","v":1},{"nonce":"d","v":2}]}"#
        #expect(
            await replay.text(.post("/events").body(.raw(Data(json.utf8), contentType: "application/json")))
                == "json")
        #expect(await replay.text(.post("/form").body(.form(["csrf": "new", "a": "1"]))) == "form")
    }

    @Test func comparesFormBodiesAsSetsOfPairs() async throws {
        defer { files.remove() }
        let replay = try replay([
            exchange(
                "POST", "https://api.example.com/login", body: "b=2+3&a=1&a=x%26y",
                contentType: "application/x-www-form-urlencoded",
                answer: "ok")
        ])
        #expect(await replay.text(.post("/login").body(.form(["a": "x&y", "b": "2 3", "a": "1"]))) == "ok")
        let miss = await replay.text(.post("/login").body(.form(["a": "1", "b": "2 3"])))
        #expect(miss.contains(#"form field `a`: ["1", "x&y"] recorded, "1" sent"#))
    }

    @Test func matchesMultipartBodiesWhateverTheirBoundary() async throws {
        defer { files.remove() }
        // Given a multipart upload recorded with one random boundary
        let parts: [MultipartPart] = [
            .field("title", "Me"), .file("image", fileName: "a.png", data: Data([0, 1, 2])),
        ]
        let recorded = try Recording.harRequest(
            for: .post("/upload").body(.multipart(parts)), baseURL: testBaseURL)
        var entry = exchange("POST", "https://api.example.com/upload", answer: "uploaded")
        entry.request = recorded
        let replay = try replay([entry])
        // When the same parts are sent with another random boundary, Then it matches
        #expect(await replay.text(.post("/upload").body(.multipart(parts))) == "uploaded")
    }

    @Test func comparesOtherBodiesByteForByte() async throws {
        defer { files.remove() }
        var entry = exchange("PUT", "https://api.example.com/blob", answer: "stored")
        entry.request.postData = HAR.PostData(mimeType: "application/octet-stream", body: Data([1, 2, 3]))
        let replay = try replay([entry])
        #expect(
            await replay.text(
                .put("/blob").body(.raw(Data([1, 2, 3]), contentType: "application/octet-stream")))
                == "stored")
        let miss = await replay.text(
            .put("/blob").body(.raw(Data([1, 2, 4]), contentType: "application/octet-stream")))
        #expect(miss.contains("body: 3 bytes recorded, 3 bytes sent, first difference at byte 2"))
    }

    @Test func comparesHeadersOnlyWhenAsked() async throws {
        defer { files.remove() }
        let entries = [
            exchange(
                "GET", "https://api.example.com/v", headers: [HAR.Header(name: "x-api-version", value: "1")],
                answer: "v1")
        ]
        let lenient = try replay(entries)
        #expect(await lenient.text(.get("/v").header("X-API-Version", "2")) == "v1")
        let strict = try replay(entries) { $0.matching.headers = ["X-Api-Version"] }
        #expect(await strict.text(.get("/v").header("X-API-Version", "1")) == "v1")
        let miss = await strict.text(.get("/v").header("X-API-Version", "2"))
        #expect(miss.contains(#"header `x-api-version`: "1" recorded, "2" sent"#))
    }

    @Test func appliesCustomMatchersThatCompose() async throws {
        defer { files.remove() }
        let tenant = ReplayDispatcher.Matcher("same tenant") { request, recorded in
            request.value(forHeader: "X-Tenant") == recorded.value(forHeader: "X-Tenant")
        }
        let beta = ReplayDispatcher.Matcher("beta") { request, _ in request.value(forHeader: "X-Beta") != nil
        }
        let entries = [
            exchange(
                "GET", "https://api.example.com/me", headers: [HAR.Header(name: "X-Tenant", value: "a")],
                answer: "a"),
            exchange(
                "GET", "https://api.example.com/me", headers: [HAR.Header(name: "X-Tenant", value: "b")],
                answer: "b"),
        ]
        let replay = try replay(entries) {
            $0.matching.matchers = [tenant.and(beta.negated().or(.header("X-Beta")))]
        }
        #expect(await replay.text(.get("/me").header("X-Tenant", "b")) == "b")
        #expect(await replay.text(.get("/me").header("X-Tenant", "a")) == "a")
        let miss = await replay.text(.get("/me").header("X-Tenant", "c"))
        #expect(miss.contains("matcher `same tenant and (not (beta) or header X-Beta)` refused it"))
        #expect(tenant.description == "same tenant")
    }

    @Test func leavesOutTheHostWhenAsked() async throws {
        defer { files.remove() }
        let entries = [exchange("GET", "http://127.0.0.1:8089/users", answer: "users")]
        let strict = try replay(entries)
        #expect(
            await strict.text(.get("/users")).contains(
                "host: http://127.0.0.1:8089 recorded, https://api.example.com sent"))
        let lenient = try replay(entries) { $0.matching.ignoresHost = true }
        #expect(await lenient.text(.get("/users")) == "users")
    }

    @Test func redactsTheRequestBeforeComparingIt() async throws {
        defer { files.remove() }
        // Given a cassette written with redaction, which holds placeholders for the secrets
        let recorded = exchange(
            "POST", "https://api.example.com/token?api_key=k-1",
            body: #"{"user":"ada","password":"hunter2"}"#,
            headers: [HAR.Header(name: "Authorization", value: "Bearer t-1")], answer: "token")
        try cassette([recorded]).write(to: files.cassette)
        #expect(try !files.bytes().contains("hunter2"))
        let replay = ReplayDispatcher(
            cassette: files.cassette, baseURL: testBaseURL, mode: .replayOnly,
            configuration: testConfiguration {
                $0.matching.headers = ["Authorization"]
            })
        // When the live request carries real secrets, Then it matches its redacted recording
        let request = RequestData.post("/token").query("api_key", "k-2").header("Authorization", "Bearer t-2")
            .body(.raw(Data(#"{"password":"swordfish","user":"ada"}"#.utf8), contentType: "application/json"))
        #expect(await replay.text(request) == "token")
    }

    @Test func findsRecordingsInALargeCassetteByLookup() async throws {
        defer { files.remove() }
        // Given 2,000 recordings of different URLs
        let entries = (0..<2_000).map {
            exchange("GET", "https://api.example.com/items/\($0)?v=1", answer: "item \($0)")
        }
        let replay = try replay(entries)
        // Then the first, a middle one and the last are found
        #expect(await replay.text(.get("/items/1999").query("v", "1")) == "item 1999")
        #expect(await replay.text(.get("/items/0").query("v", "1")) == "item 0")
        #expect(await replay.text(.get("/items/1000").query("v", "1")) == "item 1000")
        #expect(replay.report.unplayed.count == 1_997)
    }
}
