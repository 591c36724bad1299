import Errand
import ErrandReplay
import Foundation
import Testing

/// The report's text, when a server and a cassette put hostile text in it: keys, header
/// values, methods and messages are escaped, so no line is forged and no escape runs.
@Suite struct VerificationReportTextTests {
    let live = InMemoryDispatcher()

    /// Characters that end a line, move the cursor or reorder text.
    static func isHostile(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A: false
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    @Test func hostileKeysHeaderValuesAndMethodsAreEscapedOneLineEach() async {
        // Given a live answer whose keys forge a log line, set a terminal title and reverse text,
        // with a compared header holding CR LF, and a recorded method with a line break
        let keys = [
            "line\r\n[errand #999] ← 200 GET /admin", "\u{1B}]0;owned\u{07}", "\u{202E}gnp.exe", "nul\u{0}",
            "sep\u{2028}x", "é\u{9B}",
        ]
        let json = try? JSONSerialization.data(
            withJSONObject: Dictionary(uniqueKeysWithValues: keys.map { ($0, 1) }))
        live.stub(
            .get, "/users",
            response: .data(
                json ?? Data(), contentType: "application/json", headers: ["X-Version": "2\u{1B}[2J"]))
        var entry = CassetteVerifierTests.recorded(json: "{}")
        entry.response.headers.append(HAR.Header(name: "X-Version", value: "1\r\nentry 9: forged"))
        let broken = CassetteVerifierTests.recorded(
            "GE\nT", "https://api.example.com/users\u{1B}[2J", json: "{}")
        let har = HAR(creator: HAR.Creator(name: "test", version: "1"), entries: [entry, broken])
        // When the cassette is verified
        let report = await CassetteVerifier(
            har: har, dispatcher: live,
            options: CassetteVerifier.Options {
                $0.headers = ["X-Version"]
                $0.allowsUnsafeMethods = true
            }
        ).verify()
        let text = report.text(breakingFor: Set(VerificationReport.Category.allCases))
        // Then the text has one line per change, none of them forged, and no control character
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 1 + 1 + 1 + keys.count + 1, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("entry ") }.count == 1)
        #expect(!text.unicodeScalars.contains(where: Self.isHostile), "\(text.debugDescription)")
        #expect(text.contains(#"added key line\r\n[errand #999] ← 200 GET /admin"#))
        #expect(text.contains(#"added key \u{1B}]0;owned\u{7}"#))
        #expect(text.contains(#"header X-Version changed: "1\r\nentry 9: forged" recorded"#))
        #expect(text.contains(#"skipped entry 1: GE\nT https://api.example.com/users\u{1B}[2J: not sent"#))
        // And the values themselves stay raw, to assert on
        #expect(report.differences.contains { $0.kind == .keyAdded(path: "\u{1B}]0;owned\u{07}") })
    }
}
