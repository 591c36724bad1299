import Errand
import Testing

/// The body of a JSON string, in the writer's spelling and in the other spellings servers use.
@Suite struct JSONStringTests {
    static let hostile = "q\"b\\n\nr\rt\tbs\u{8}ff\u{C}nul\0esc\u{1B}[2J/é😀"

    @Test func theWriterUsesShortEscapesAndLowerCaseHex() {
        // Given text with every kind of character a JSON string must escape
        // When it is escaped as the HAR writer writes it
        let escaped = JSONString.escaped(Self.hostile)
        // Then quotes, backslashes and controls are escaped, `/` and non-ASCII are kept
        #expect(escaped == #"q\"b\\n\nr\rt\tbs\bff\fnul\u0000esc\u001b[2J/é😀"#)
    }

    @Test func theOtherSpellingsEscapeBackspaceFormFeedAndSlash() {
        // Given the same text
        // When it is escaped with backspace and form feed as `\u` escapes, and with `/` escaped
        let unicode = JSONString.escaped(Self.hostile, shortControls: false)
        let slashed = JSONString.escaped("a/b", slash: true)
        // Then each spelling differs from the writer's only there
        #expect(unicode == #"q\"b\\n\nr\rt\tbs\u0008ff\u000cnul\u0000esc\u001b[2J/é😀"#)
        #expect(slashed == #"a\/b"#)
        #expect(SecretSpelling("x", encoding: .jsonEscaped).replacement(for: Self.hostile) == unicode)
    }

    @Test func appendingAddsToWhatIsThereAndCopiesPlainTextWhole() {
        // Given bytes already written
        var output = Array("[".utf8)
        // When plain text and then text that needs escapes are appended
        JSONString.append("plain ümlaut", to: &output)
        JSONString.append("\u{7F}\u{1F}", to: &output)
        // Then the plain text is copied as it is, DEL is kept and U+001F is escaped
        #expect(String(decoding: output, as: UTF8.self) == "[plain ümlaut\u{7F}\\u001f")
    }
}
