import Errand
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
