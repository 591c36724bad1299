import Errand
import Foundation
import Testing

/// Where a URL's user info is, what it stands for, and which vocabularies hide it.
@Suite struct URLUserInfoTests {
    /// URLs as written, and the user info each has: only the authority's, up to its last `@`.
    static let cases: [(url: String, userInfo: String?)] = [
        ("https://user:S3cretPw9@api.example.com/users/42", "user:S3cretPw9"),
        ("https://us%40er:p%3Assword9@api.example.com/", "us%40er:p%3Assword9"),
        ("https://user:@api.example.com/", "user:"),
        ("https://TOKEN-abcdef123@api.example.com", "TOKEN-abcdef123"),
        ("http://user:pw@[::1]:8080/x", "user:pw"),
        ("https://u:p%zz%4@host.example/", "u:p%zz%4"),
        ("https://a@b:c@host.example/", "a@b:c"),
        ("HTTPS://u:p@host.example?x", "u:p"),
        ("https://api.example.com/users/@me", nil),
        ("https://api.example.com/x?email=a@b.example", nil),
        ("https://api.example.com#top@x", nil),
        ("/go?to=https://u:p@evil.example", nil),
        ("users/@me", nil),
        ("https://@host.example/", nil),
        ("1http://u:p@host.example/", nil),
        ("https:/u:p@host.example/", nil),
        ("", nil),
    ]

    @Test(arguments: cases)
    func userInfoIsTheAuthoritysUpToItsLastAt(url: String, userInfo: String?) {
        // When the user info of a URL as written is looked for
        let range = SecretVocabulary.userInfo(inURL: url)
        // Then it is the authority's, never an `@` of the path, query, fragment or a nested URL
        #expect(range.map { String(url[$0]) } == userInfo)
    }

    @Test func theWholeUserInfoIsReplacedAndEverythingElseKept() {
        let vocabulary = SecretVocabulary.default
        // Given URLs with user info, an `@` elsewhere, and a secret query item
        let url =
            "https://us%40er:p%3Assword9@[2001:db8::1]:8443/users/@me?email=a@b.example&key=K-123456#f@x"
        // When redacted for people and for a URL
        let shown = vocabulary.redactingQuery(ofURL: url)
        let escaped = vocabulary.redactingQuery(ofURL: url, escapingPlaceholder: true)
        // Then the user info and the key are gone, every other byte is where it was
        #expect(
            shown == "https://<redacted>@[2001:db8::1]:8443/users/@me?email=a@b.example&key=<redacted>#f@x")
        #expect(escaped.hasPrefix("https://%3Credacted%3E@[2001:db8::1]:8443/users/@me?"))
        #expect(URL(string: escaped)?.host?.contains("2001:db8::1") == true)
        // And a URL already redacted, or without user info, is returned as it is
        #expect(vocabulary.redactingQuery(ofURL: escaped, escapingPlaceholder: true) == escaped)
        #expect(
            vocabulary.redactingQuery(ofURL: "https://api.example.com/@me") == "https://api.example.com/@me")
    }

    @Test func userInfoIsHiddenWhereverAuthorizationIs() {
        // Given vocabularies with and without Authorization
        let url = "https://user:S3cretPw9@api.example.com/"
        var withoutAuthorization = SecretVocabulary.default
        withoutAuthorization.remove("Authorization")
        // Then the user info is hidden by the first only
        #expect(SecretVocabulary.default.hidesUserInfo)
        #expect(!withoutAuthorization.hidesUserInfo)
        #expect(!SecretVocabulary.none.hidesUserInfo)
        #expect(withoutAuthorization.redactingQuery(ofURL: url) == url)
        #expect(SecretVocabulary.none.redactingQuery(ofURL: url) == url)
        #expect(SecretVocabulary(names: ["Authorization"], queryNames: []).hidesUserInfo)
    }

    @Test func theUserInfoStandsForItsDecodedPartsAndTheBasicCredentialsSentForIt() {
        // When the values of a percent-escaped user info are listed
        let values = SecretVocabulary.secretValues(ofUserInfo: "us%40er:p%3Assword9")
        // Then they are as written, decoded, paired, and as Basic credentials
        let basic = "Basic " + Data("us@er:p:ssword9".utf8).base64EncodedString()
        #expect(values == ["us%40er:p%3Assword9", "us@er", "p:ssword9", "us@er:p:ssword9", basic])
        // And an empty password, a lone token and unbalanced escapes give what they can
        #expect(
            SecretVocabulary.secretValues(ofUserInfo: "user:") == [
                "user:", "user", "Basic " + Data("user:".utf8).base64EncodedString(),
            ])
        #expect(SecretVocabulary.secretValues(ofUserInfo: "TOKEN-abcdef123").contains("TOKEN-abcdef123"))
        #expect(SecretVocabulary.secretValues(ofUserInfo: "u:p%zz%4").contains("p%zz%4"))
    }

    @Test func keyIsSecretInQueriesOnly() {
        let vocabulary = SecretVocabulary.default
        // Then `key` is a secret query item in any spelling, but no secret JSON key or header
        #expect(vocabulary.matchesQueryItem("key"))
        #expect(vocabulary.matchesQueryItem("KEY"))
        #expect(vocabulary.matchesQueryItem("apiKey"))
        #expect(vocabulary.matchesQueryItem("access_token"))
        #expect(!vocabulary.matchesQueryItem("page"))
        #expect(!vocabulary.matches("key"))
        #expect(vocabulary.redactedJSON(Data(#"{"key":"theme","value":"dark"}"#.utf8))?.secrets == [])
        // And it can be removed, or added to, like any name
        var without = vocabulary
        without.remove("Key")
        #expect(!without.matchesQueryItem("key"))
        #expect(SecretVocabulary.none.union(.default).matchesQueryItem("key"))
        #expect(!SecretVocabulary.none.matchesQueryItem("key"))
    }
}
