import Foundation
import Testing

@testable import ErrandReplay

/// The scan that stops a redacted value from reaching a cassette by another way.
@Suite struct HARSecretScanTests {
    static let file = Data(
        #"""
        {
          "log": {
            "entries": [
              {
                "url": "https://a.example/x?q=s%20cret%2Bvalue",
                "text": "{\"echo\":\"Bearer ab\\\"cd-1234\"}"
              },
              {
                "text": "aGVsbG8tc2VjcmV0LXRva2Vu",
                "value": "hunter22 and tok/ab+c/d"
              }
            ]
          }
        }
        """#.utf8)

    @Test func findsASecretAsTheFileSpellsItAndSaysWhere() throws {
        // A JSON-escaped secret inside a JSON body
        let escaped = try #require(HARSecretScan.firstLeak(of: [#"Bearer ab"cd-1234"#], in: Self.file))
        #expect(escaped.line == 6)
        #expect(escaped.entryIndex == 0)
        #expect(escaped.context == #""text": "{\"echo\":\"<secret>\"}""#)
        // A percent-encoded secret in a URL
        let encoded = try #require(HARSecretScan.firstLeak(of: ["s cret+value"], in: Self.file))
        #expect(encoded.line == 5)
        #expect(encoded.context == #""url": "https://a.example/x?q=<secret>","#)
    }

    @Test func ignoresShortValuesAndMatchesInsideLongerWords() {
        // "tok" is too short to search for; "hunter2" is only part of "hunter22"; the base64
        // text hides "secret" inside a longer word
        #expect(HARSecretScan.firstLeak(of: ["tok", "hunter2", "c2VjcmV0"], in: Self.file) == nil)
        // A whole word is found, at the start of a value or after a separator
        #expect(HARSecretScan.firstLeak(of: ["hunter22"], in: Self.file)?.entryIndex == 1)
    }

    @Test func findsASecretWhoseSlashesAJSONBodyEscaped() throws {
        let leak = try #require(HARSecretScan.firstLeak(of: ["tok/ab+c/d"], in: Self.file))
        #expect(leak.line == 10)
        #expect(leak.context.hasPrefix(#""value": "hunter22 and <secret>""#))
        let onlyEscaped = Data(#"  "text": "{\"t\":\"tok\\/ab+c\\/d\"}""#.utf8)
        let escaped = HARSecretScan.firstLeak(of: ["tok/ab+c/d"], in: onlyEscaped)
        #expect(escaped?.context == #""text": "{\"t\":\"<secret>\"}""#)
    }
}
