import Errand
import Testing

/// The one escaping path: nothing from a caller or a server can end a line or run an escape.
@Suite struct EscapedTextTests {
    @Test func plainTextIsKeptAsItIs() {
        #expect(
            EscapedText.line("GET /users?page=2 \\n {\"a\":\"x\\\"y\"}")
                == "GET /users?page=2 \\n {\"a\":\"x\\\"y\"}")
        #expect(EscapedText.line("bücher ✓ 日本") == "bücher ✓ 日本")
    }

    @Test(arguments: [
        ("a\r\n[errand #999] ← 200 GET /admin", "a\\r\\n[errand #999] ← 200 GET /admin"),
        ("\u{1B}]0;pwned\u{07}x", "\\u{1B}]0;pwned\\u{7}x"),
        ("tab\there\0nul", "tab\\there\\0nul"),
        ("del\u{7F} c1\u{85} \u{9B}31m", "del\\u{7F} c1\\u{85} \\u{9B}31m"),
        ("ls\u{2028}ps\u{2029}", "ls\\u{2028}ps\\u{2029}"),
        ("bidi\u{202E}txt.exe\u{2066}", "bidi\\u{202E}txt.exe\\u{2066}"),
    ])
    func controlCharactersAreShownAsEscapes(raw: String, shown: String) {
        #expect(EscapedText.line(raw) == shown)
        #expect(!EscapedText.line(raw).contains { $0.isNewline })
    }

    @Test func aBlockIndentsEveryLineAndEscapesTheRest() {
        let body = "{\n  \"a\": 1\r\n}\r[errand #9] ← 200\n\u{1B}[2J"
        let block = EscapedText.block(body)
        #expect(block == "  {\n    \"a\": 1\n  }\\r[errand #9] ← 200\n  \\u{1B}[2J")
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            #expect(line.hasPrefix("  "))
        }
    }

    @Test func aBlockOfEmptyOrTrailingLinesStaysIndented() {
        #expect(EscapedText.block("") == "  ")
        #expect(EscapedText.block("a\n") == "  a\n  ")
        #expect(EscapedText.block("\n\n", indent: "> ") == "> \n> \n> ")
    }

    @Test(arguments: [
        ("plain", #""plain""#),
        (#"say "hi" \ bye"#, #""say \"hi\" \\ bye""#),
        ("a\r\nb\t\0", #""a\r\nb\t\0""#),
        ("\u{1B}]0;x\u{07}\u{202E}é", #""\u{1B}]0;x\u{7}\u{202E}é""#),
    ])
    func aQuotedValueEscapesItsQuotesBackslashesAndControls(raw: String, shown: String) {
        // Given text from a caller, such as a header name, with quotes, line breaks and escapes
        // When it is quoted for a message
        let quoted = EscapedText.quoted(raw)
        // Then it is one line whose only bare quotes are the two around it
        #expect(quoted == shown)
        #expect(!quoted.contains { $0.isNewline })
        #expect(quoted.dropFirst().dropLast().replacing(#"\""#, with: "").contains("\"") == false)
    }
}
