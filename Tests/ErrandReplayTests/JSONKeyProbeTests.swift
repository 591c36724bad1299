import Errand
import ErrandTestSupport
import Foundation
import Testing

@testable import ErrandReplay

/// The flight recorder's probe: a "no" must be safe (no key that redaction hides can be in the
/// text), and a "no" for most bodies is what spares them the walk.
@Suite struct JSONKeyProbeTests {
    let probe = JSONKeyProbe(normalizedNames: SecretVocabulary.default.normalizedNames)

    @Test(arguments: [
        #"{"password":"x"}"#,
        #"{"user":{"access_token":"x"}}"#,
        #"{"Access-Token":"x"}"#,
        #"{"ACCESS_TOKEN":"x"}"#,
        #"{ "access.token" : "x"}"#,
        #"[{"a":1},{"refreshToken":"x"}]"#,
        // A key behind an escape cannot be read without decoding: always "maybe".
        #"{"\u0070assword":"x"}"#,
        // A value spelled like a name costs a walk, nothing worse.
        #"{"note":"password"}"#,
    ])
    func answersMaybeWhereAHiddenKeyCouldBe(_ text: String) {
        #expect(probe.mayHoldKey(in: Data(text.utf8)))
    }

    @Test(arguments: [
        "",
        "{}",
        #"{"id":1,"name":"Leanne Graham","address":{"city":"Gwenborough","geo":{"lat":"-37.3159"}}}"#,
        #"{"passwords":"x","pass":"y","tokenizer":"z"}"#,
        // An escaped backslash followed by `u` is not an escape.
        #"{"path":"C:\\users"}"#,
        // A quote as the last byte, and a key cut short by the end of the text.
        #"{"a":""#,
        #"{"passw"#,
    ])
    func answersNoWhereNoHiddenKeyCanBe(_ text: String) {
        #expect(!probe.mayHoldKey(in: Data(text.utf8)))
    }

    @Test func findsAKeyInALargeBodyAfterManyOthers() {
        // Given a body of many plain keys with one hidden key near the end
        var text = "{"
        for index in 0..<2_000 { text += #""field\#(index)":"value\#(index)","# }
        text += #""client_secret":"x"}"#

        // Then the probe finds it
        #expect(probe.mayHoldKey(in: Data(text.utf8)))
        #expect(
            !probe.mayHoldKey(
                in: Data(text.replacingOccurrences(of: "client_secret", with: "clientname").utf8)))
    }

    @Test func answersAsComparingEveryQuotedTextWithTheNamesWould() {
        // Given texts made of quoted pieces near and far from the names, in every spelling,
        // and names of one and two bytes beside the default ones
        let names = SecretVocabulary.default.normalizedNames.union(["x", "qz"])
        let probe = JSONKeyProbe(normalizedNames: names)
        let pieces = [
            "password", "Pass-Word", "passwd", "pass", "PASSWORDS", "to_ken", "token", "tokens", "x", "X-",
            "-x", "xy", "qz", "q.z", "qzz", "sig", "s", "signature", "id", "id_token", "Set-Cookie",
            "name", "price", "", " ", "..", "a b", "sku", "Authorization", "auth", "api-key", "apikey",
        ]
        let glue = [#"{""#, #"":""#, #"",""#, #"":1,""#, #"":[""#, #""]}"#, #"":{""#, " ", ":", ","]
        var generator = SplitMix64(seed: 0x5EC2_E75)
        for _ in 0..<3_000 {
            var text = ""
            for _ in 0..<Int.random(in: 1...12, using: &generator) {
                text += glue.randomElement(using: &generator) ?? ""
                text += pieces.randomElement(using: &generator) ?? ""
            }
            if Bool.random(using: &generator) { text += #"""# }

            // When the probe answers, Then it says "maybe" exactly when a quoted text, up to its
            // closing quote, normalises to a name
            #expect(probe.mayHoldKey(in: Data(text.utf8)) == Self.holdsName(text, names), "\(text)")
        }
    }

    /// The probe's answer worked out the slow way: each quote starts a text that ends at the
    /// next quote; one normalising to a name is a key redaction may hide.
    private static func holdsName(_ text: String, _ names: Set<String>) -> Bool {
        let parts = text.split(separator: "\"", omittingEmptySubsequences: false)
        // Part 0 is before the first quote; the last part has no closing quote after it.
        guard parts.count > 2 else { return false }
        return parts[1..<(parts.count - 1)].contains {
            names.contains(SecretVocabulary.normalized(String($0)))
        }
    }

    @Test func aNameThatIsNotASCIIMakesEveryAnswerMaybe() {
        let probe = JSONKeyProbe(normalizedNames: ["mot-de-passé"])
        #expect(probe.mayHoldKey(in: Data("{}".utf8)))
    }
}

/// A URL split at its first `?` and first `#`, by bytes.
@Suite struct HARURLPartsTests {
    @Test(
        arguments: [
            ("https://a.test/p", "https://a.test/p", nil, nil),
            ("https://a.test/p?q=1", "https://a.test/p", "q=1", nil),
            ("https://a.test/p?q=1#top", "https://a.test/p", "q=1", "top"),
            ("https://a.test/p#top?q=1", "https://a.test/p", nil, "top?q=1"),
            ("https://a.test/p?a=1?b=2", "https://a.test/p", "a=1?b=2", nil),
            ("https://a.test/café?é=ü#ö", "https://a.test/café", "é=ü", "ö"),
            ("", "", nil, nil),
            ("?#", "", "", ""),
        ] as [(String, String, String?, String?)])
    func splitsAtTheFirstQuestionMarkBeforeAnyHash(
        url: String, base: String, query: String?, fragment: String?
    ) {
        let parts = HARURLQuery.parts(of: url)
        #expect(String(parts.base) == base)
        #expect(parts.query.map(String.init) == query)
        #expect(parts.fragment.map(String.init) == fragment)
    }
}
