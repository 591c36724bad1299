import Errand
import Foundation
import Testing

/// One vocabulary of secret names, matched whatever the case and separators.
@Suite struct SecretVocabularyTests {
    static let spellings = ["access_token", "accessToken", "access-token", "AccessToken", "ACCESS_TOKEN"]

    @Test(arguments: spellings)
    func matchesEverySpellingOfADefaultName(name: String) {
        // Given the default vocabulary, When asked about a spelling, Then it is secret
        #expect(SecretVocabulary.default.matches(name))
        #expect(SecretVocabulary.normalized(name) == "accesstoken")
    }

    @Test func matchesTheDefaultNamesAndNothingElse() {
        let vocabulary = SecretVocabulary.default
        for name in [
            "Authorization", "proxy_authorization", "Cookie", "SET-COOKIE", "X-Api-Key", "apiKey",
            "refreshToken",
            "id.token", "clientSecret", "Password", "token", "secret", "Signature", "client secret",
        ] {
            #expect(vocabulary.matches(name), "\(name)")
        }
        for name in ["page", "user", "tokens", "accessTokenExpiry", "key", "Accept", ""] {
            #expect(!vocabulary.matches(name), "\(name)")
        }
        #expect(!SecretVocabulary.none.matches("authorization"))
        #expect(SecretVocabulary.none.isEmpty)
        #expect(vocabulary.placeholder == "<redacted>")
    }

    @Test func takesNamesInAnySpellingAndRemovesThemInAnyOther() {
        // Given a vocabulary with an added name
        var vocabulary = SecretVocabulary { $0.insert("Social-Security-Number") }
        // Then every spelling of it matches
        #expect(vocabulary.matches("socialSecurityNumber"))
        #expect(vocabulary.matches("SOCIAL_SECURITY_NUMBER"))
        // When a default name is removed in another spelling, Then it no longer matches
        vocabulary.remove("AccessToken")
        #expect(!vocabulary.matches("access_token"))
        #expect(vocabulary.matches("refresh_token"))
        #expect(SecretVocabulary(names: ["ssn"]).union(.default).matches("ssn"))
        #expect(SecretVocabulary(names: ["ssn"]).union(.default).matches("password"))
    }

    @Test func redactsHeadersAndQueryItemsByAnySpelling() {
        let vocabulary = SecretVocabulary.default
        // Given headers and query items named in the five spellings
        let headers = HTTPHeaders(Self.spellings.map { HTTPHeaders.Field(name: $0, value: "SECRET") })
        let query =
            Self.spellings.map { URLQueryItem(name: $0, value: "SECRET") } + [
                URLQueryItem(name: "page", value: "2")
            ]
        // When redacted, Then every value is the placeholder, others kept in order
        #expect(vocabulary.redacted(headers).map(\.value) == Array(repeating: "<redacted>", count: 5))
        #expect(vocabulary.redacted(headers).map(\.name) == Self.spellings)
        #expect(vocabulary.redacted(query).map(\.value) == Array(repeating: "<redacted>", count: 5) + ["2"])
    }

    @Test func redactsJSONKeysInEverySpellingAtAnyDepthInsideArrays() throws {
        // Given a JSON body with the five spellings nested three and more levels deep in arrays
        let members = Self.spellings.map { #""\#($0)": "SECRET-\#($0)""# }.joined(separator: ", ")
        let body = Data(#"{"data": [{"items": [{"auth": [{\#(members), "page": 2}]}]}]}"#.utf8)
        // When redacted
        let redacted = try #require(SecretVocabulary.default.redactedJSON(body))
        // Then no secret is left, every other byte is kept, and the secrets are reported
        let text = String(decoding: redacted.data, as: UTF8.self)
        #expect(!text.contains("SECRET"))
        #expect(text.contains(#""accessToken": "<redacted>""#))
        #expect(text.contains(#""page": 2}]}]}]}"#))
        #expect(redacted.secrets.sorted() == Self.spellings.map { "SECRET-\($0)" }.sorted())
        #expect(SecretVocabulary.default.redactedJSON(Data("not json {".utf8)) == nil)
    }

    @Test func redactsMultipartFieldsInEverySpelling() throws {
        // Given a multipart body with a field in each spelling and an ordinary field
        let parts = Self.spellings.map { MultipartPart.field($0, "SECRET-\($0)") } + [.field("user", "ada")]
        let body = try #require(RequestData.post("/").body(.multipart(parts, boundary: "b0und")).body?.data)
        // When redacted
        let redacted = try #require(SecretVocabulary.default.redactedMultipart(body, boundary: "b0und"))
        // Then the secret contents are gone, the structure and the other field kept
        let text = String(decoding: redacted.data, as: UTF8.self)
        #expect(!text.contains("SECRET"))
        #expect(text.contains("name=\"accessToken\"\r\n\r\n<redacted>\r\n--b0und"))
        #expect(text.contains("name=\"user\"\r\n\r\nada\r\n--b0und--"))
        #expect(redacted.secrets.count == 5)
    }

    @Test func crossesTasks() async {
        // Given a vocabulary and a spelling list, When used from a detached task, Then they work there
        let vocabulary = SecretVocabulary { $0.insert("ssn") }
        let spellings = SecretSpelling.spellings(of: "Bearer secret-xyz")
        let result = await Task.detached { (vocabulary.matches("SSN"), spellings.count) }.value
        #expect(result.0)
        #expect(result.1 > 1)
    }
}
