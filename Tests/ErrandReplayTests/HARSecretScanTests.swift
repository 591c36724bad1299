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

    @Test func followsTheLengthRule() {
        // Under six characters: not searched for ("tok", "dark1"). Six or seven: whole words
        // only, so "hunter2" is not found inside "hunter22"
        #expect(HARSecretScan.firstLeak(of: ["tok", "dark1", "hunter2"], in: Self.file) == nil)
        // A whole word is found, at the start of a value or after a separator
        #expect(HARSecretScan.firstLeak(of: ["hunter22"], in: Self.file)?.entryIndex == 1)
        // Eight and more: anywhere, even inside a longer word such as base64 text
        #expect(HARSecretScan.firstLeak(of: ["c2VjcmV0"], in: Self.file)?.entryIndex == 1)
        // And in base64 itself: "hello-secret-token" is what that text encodes
        let leak = HARSecretScan.firstLeak(of: ["secret-token"], in: Self.file)
        #expect(leak?.line == 9)
        #expect(leak?.field == "text")
    }

    @Test func hidesEchoesInTheirOwnSpellingAndLeavesTheRest() throws {
        // Given a file with a secret plain, escaped, percent-encoded, and a number outside strings
        let file = Data(
            #"""
            {"size": 12345678, "a": "Bearer x-secret/1 and x-secret/1",
             "b": "{\"t\":\"x-secret\\/1\"}", "c": "?q=x-secret%2F1&n=12345678"}
            """#.utf8)
        // When cleaned
        let outcome = HARSecretScan.clean(
            file, secrets: ["Bearer x-secret/1", "12345678"], placeholder: "<r>")
        // Then every spelling inside a string is the placeholder in that spelling
        #expect(outcome.leak == nil)
        #expect(outcome.replaced == 5)
        #expect(
            String(decoding: outcome.data, as: UTF8.self)
                == #"""
                {"size": 12345678, "a": "<r> and <r>",
                 "b": "{\"t\":\"<r>\"}", "c": "?q=%3Cr%3E&n=<r>"}
                """#)
        // A match that would cut a \u escape in half is left alone
        let unicode = Data(#"{"a": "\u00e9abcdef12"}"#.utf8)
        #expect(HARSecretScan.clean(unicode, secrets: ["00e9abcdef12"], placeholder: "<r>").data == unicode)
        // When a secret is in base64, Then nothing is changed and the place is reported
        let blob = Data(
            #"{"log": {"text": "\#(Data("xx-secret/1-yy x-secret/1".utf8).base64EncodedString())"}}"#.utf8)
        let refused = HARSecretScan.clean(blob, secrets: ["x-secret/1"], placeholder: "<r>")
        #expect(refused.data == blob)
        #expect(refused.leak?.line == 1)
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
