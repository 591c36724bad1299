import Errand
import ErrandReplay
import Foundation
import Testing

/// A secret name is redacted in a recorded cassette whatever its case and separators, in every
/// place a request or a response can carry it.
@Suite struct ReplaySecretSpellingTests {
    static let spellings = ["access_token", "accessToken", "access-token", "AccessToken", "ACCESS_TOKEN"]

    let files: CassetteFolder
    let upstream = InMemoryDispatcher()

    init() throws {
        files = try CassetteFolder()
    }

    func recorder() -> ReplayDispatcher {
        ReplayDispatcher(
            cassette: files.cassette, baseURL: testBaseURL, mode: .recordAll, upstream: upstream,
            configuration: testConfiguration())
    }

    func written() throws -> String {
        String(decoding: try files.bytes(), as: UTF8.self)
    }

    @Test func redactsEverySpellingInHeadersAndQueryItems() async throws {
        defer { files.remove() }
        // Given a request with the five spellings as headers and as query items
        upstream.stub(.get, "/items", response: .text("ok"))
        var request = RequestData.get("/items").query("page", "2")
        for name in Self.spellings {
            request = request.header(name, "SECRET-header-\(name)").query(name, "SECRET-query-\(name)")
        }
        // When recorded
        _ = try await recorder().dispatch(request)
        // Then no value is in the file, and placeholders stand where they were
        #expect(try !written().contains("SECRET"))
        let recorded = try files.read().entries[0].request
        for name in Self.spellings {
            #expect(recorded.value(forHeader: name) == "<redacted>")
        }
        #expect(recorded.queryItems.map(\.value) == ["2"] + Array(repeating: "<redacted>", count: 5))
    }

    @Test func redactsEverySpellingAsJSONKeysNestedInArrays() async throws {
        defer { files.remove() }
        // Given JSON bodies, request and response, with the five spellings four levels deep
        let members = { (side: String) in
            Self.spellings.map { #""\#($0)": "SECRET-\#(side)-\#($0)""# }.joined(separator: ", ")
        }
        let body = { (side: String) in
            Data(#"{"data": [{"sessions": [{"grants": [{\#(members(side)), "scope": "read"}]}]}]}"#.utf8)
        }
        upstream.stub(.post, "/grants", response: .data(body("response"), contentType: "application/json"))
        // When recorded
        _ = try await recorder().dispatch(
            .post("/grants").body(.raw(body("request"), contentType: "application/json")))
        // Then neither side's values are in the file; the other members are
        let file = try written()
        #expect(!file.contains("SECRET"))
        #expect(file.contains(#"\"accessToken\": \"<redacted>\""#))
        #expect(file.contains(#"\"scope\": \"read\""#))
    }

    @Test func redactsEverySpellingAsFormAndMultipartFields() async throws {
        defer { files.remove() }
        upstream.stub(.post, "/form", response: .text("ok"))
        upstream.stub(.post, "/upload", response: .text("ok"))
        // Given a form body and a multipart body with the five spellings
        let form = Self.spellings.map { ($0, "SECRET-form-\($0)") } + [("user", "ada")]
        let parts =
            Self.spellings.map { MultipartPart.field($0, "SECRET-part-\($0)") } + [.field("user", "ada")]
        // When recorded
        let recorder = recorder()
        _ = try await recorder.dispatch(
            .post("/form").body(.form(form.map { URLQueryItem(name: $0.0, value: $0.1) })))
        _ = try await recorder.dispatch(.post("/upload").body(.multipart(parts, boundary: "b0und")))
        // Then no value is in the file, and the other fields are
        #expect(try !written().contains("SECRET"))
        let entries = try files.read().entries
        #expect(
            entries[0].request.postData?.text
                == Self.spellings.map { "\($0)=%3Credacted%3E" }.joined(separator: "&") + "&user=ada")
        #expect(
            entries[0].request.postData?.params.map(\.value) == Array(repeating: "<redacted>", count: 5) + [
                "ada"
            ])
        let multipart = try #require(entries[1].request.postData?.text)
        #expect(multipart.contains("name=\"ACCESS_TOKEN\"\r\n\r\n<redacted>\r\n"))
        #expect(multipart.contains("name=\"user\"\r\n\r\nada\r\n"))
    }

    @Test func redactsACamelCaseLoginAnswer() async throws {
        defer { files.remove() }
        // Given a login answer written in camelCase, as most JSON APIs write it
        upstream.stub(
            .post, "/login",
            response: .data(
                Data(
                    #"{"accessToken":"eyJhbGciOiJIUzI1NiJ9.SECRET-access","refreshToken":"SECRET-refresh-77","#
                        .utf8)
                    + Data(#""idToken":"SECRET-id-42","tokenType":"Bearer","expiresIn":3600}"#.utf8),
                contentType: "application/json"))
        // When the login is recorded
        _ = try await recorder().dispatch(
            .post("/login").body(.json(["userName": "ada", "password": "SECRET-password"])))
        // Then no token is in the written bytes, and the rest of the answer is
        let file = try written()
        #expect(!file.contains("SECRET"))
        #expect(!file.contains("eyJhbGciOiJIUzI1NiJ9"))
        #expect(
            try files.read().entries[0].response.content.text
                == #"{"accessToken":"<redacted>","refreshToken":"<redacted>","idToken":"<redacted>","#
                + #""tokenType":"Bearer","expiresIn":3600}"#)
    }

    @Test func takesNamesAddedToTheSharedVocabularyEverywhere() async throws {
        defer { files.remove() }
        // Given a name added to the configuration's vocabulary
        upstream.stub(
            .post, "/people",
            response: .data(Data(#"{"person":{"SSN":"SECRET-ssn-2"}}"#.utf8), contentType: "application/json")
        )
        let recorder = ReplayDispatcher(
            cassette: files.cassette, baseURL: testBaseURL, mode: .recordAll, upstream: upstream,
            configuration: testConfiguration { $0.redaction.vocabulary.insert("ssn") })
        // When it is sent as a header, a query item and a body key, in several spellings
        _ = try await recorder.dispatch(
            .post("/people").header("X-Ssn", "SECRET-not-listed").header("Ssn", "SECRET-ssn-h").query(
                "ssn", "SECRET-ssn-q"
            )
            .body(.form(["s.s.n": "SECRET-ssn-f"])))
        // Then each is hidden, and a header of another name is not
        let file = try written()
        #expect(!file.contains("SECRET-ssn"))
        #expect(file.contains("SECRET-not-listed"))
    }
}
