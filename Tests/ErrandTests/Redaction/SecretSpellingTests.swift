import Errand
import Foundation
import Testing

/// Every spelling a server may echo a secret in.
@Suite struct SecretSpellingTests {
    func texts(_ secret: String) -> Set<String> {
        Set(SecretSpelling.spellings(of: secret).map(\.text))
    }

    @Test func splitsCredentialsFromTheirSchemeAndDecodesBasic() {
        // Bearer, Token or any scheme: the credentials after the scheme word
        #expect(SecretSpelling.parts(of: "Bearer secret-xyz") == ["Bearer secret-xyz", "secret-xyz"])
        #expect(SecretSpelling.parts(of: "Token secret-xyz") == ["Token secret-xyz", "secret-xyz"])
        // Basic: the pair, the user and the password as well
        let basic = "Basic " + Data("ada-lovelace:correct-horse".utf8).base64EncodedString()
        #expect(
            SecretSpelling.parts(of: basic) == [
                basic, "YWRhLWxvdmVsYWNlOmNvcnJlY3QtaG9yc2U=", "ada-lovelace:correct-horse", "ada-lovelace",
                "correct-horse",
            ])
        // Parts under six characters are left out
        #expect(SecretSpelling.parts(of: "Bearer abc") == ["Bearer abc"])
        #expect(SecretSpelling.spellings(of: "short").isEmpty)
    }

    @Test func spellsASecretPercentEncodedAndJSONEscaped() {
        let spellings = texts("secret/xyz <1>é")
        #expect(spellings.contains("secret/xyz <1>é"))
        #expect(spellings.contains("secret%2Fxyz%20%3C1%3E%C3%A9"))
        #expect(spellings.contains("secret%2Fxyz+%3C1%3E%C3%A9"))
        #expect(spellings.contains(#"secret\/xyz <1>é"#))
        #expect(spellings.contains(#"secret/xyz \u003c1\u003e\u00e9"#))
        #expect(spellings.contains(#"secret/xyz \u003C1\u003E\u00E9"#))
        #expect(texts(#"quo"te\back"#).contains(#"quo\"te\\back"#))
        // A JSON body quoted as a string inside a JSON answer: escaped twice
        #expect(texts(#"a"b/cdefgh"#).contains(#"a\\\"b\\/cdefgh"#))
        // Python's quote keeps `/`
        #expect(spellings.contains("secret/xyz%20%3C1%3E%C3%A9"))
    }

    @Test(arguments: ["", "a", "ab", "abc", "abcd"])
    func findsABase64SecretAtEveryAlignment(prefix: String) {
        // Given a secret inside a longer text, at each alignment, encoded in both alphabets
        let secret = "secret-xyz?>>"
        let encoded = Data((prefix + secret + " tail").utf8).base64EncodedString()
        let urlSafe = encoded.replacingOccurrences(of: "+", with: "-").replacingOccurrences(
            of: "/", with: "_")
        let fragments = SecretSpelling.spellings(of: secret).filter { $0.encoding == .base64 }.map(\.text)
        // Then a base64 spelling is in each
        #expect(fragments.contains { encoded.contains($0) })
        #expect(fragments.contains { urlSafe.contains($0) })
        #expect(fragments.contains { Data(secret.utf8).base64EncodedString().contains($0) })
    }

    @Test func shortValuesCountAsWholeWordsWithoutBase64() {
        let spellings = SecretSpelling.spellings(of: "abc123")
        #expect(spellings.allSatisfy { $0.isWholeWordOnly })
        #expect(!spellings.contains { $0.encoding == .base64 })
        #expect(SecretSpelling.spellings(of: "abcd1234").allSatisfy { !$0.isWholeWordOnly })
    }

    @Test func givesThePlaceholderInTheSpellingsOwnEncoding() {
        #expect(SecretSpelling("x", encoding: .plain).replacement(for: "<redacted>") == "<redacted>")
        #expect(
            SecretSpelling("x", encoding: .percentEncoded).replacement(for: "<redacted>") == "%3Credacted%3E")
        #expect(SecretSpelling("x", encoding: .jsonEscaped).replacement(for: #"<"r">"#) == #"<\"r\">"#)
        #expect(SecretSpelling("x", encoding: .base64).replacement(for: "<redacted>") == nil)
    }
}
