import Errand
import ErrandPolicies
import Foundation

/// The shape every log entry keeps whatever a caller or a server sent: one line that starts
/// with the entry's own `[errand #N]`, every other line indented by two spaces, and no control
/// character but those line breaks.
enum LogEntryShape {
    /// A line a hostile value would like to pass for an entry of its own.
    static let forged = "[errand #999] ← 200 GET /admin 1.0 ms 0 B"

    /// Line breaks in every form a terminal or a log viewer honours, each followed by `forged`.
    static let forgery = "\r\n\(forged)\n\(forged)\r\(forged)\u{85}\(forged)\u{2028}\(forged)\n"

    /// Terminal escapes: an OSC 8 hyperlink, an OSC 0 title, a CSI clear screen (7-bit and C1),
    /// a bell, a bidi override.
    static let escapes =
        "\u{1B}]8;;https://evil.example\u{1B}\\click\u{1B}]8;;\u{1B}\\\u{1B}]0;pwned\u{07}\u{1B}[2J\u{9B}2J\u{202E}"

    /// What is wrong with `entries`, or nothing.
    static func problems(in entries: [LogLine]) -> [String] {
        entries.flatMap(problems(in:))
    }

    /// What is wrong with `entry`, or nothing.
    static func problems(in entry: LogLine) -> [String] {
        var problems: [String] = []
        let text = entry.text
        if let raw = text.unicodeScalars.first(where: { $0 != "\n" && EscapedText.needsEscape($0) }) {
            problems.append(
                "raw U+\(String(raw.value, radix: 16, uppercase: true)) in \(text.debugDescription)")
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if !text.hasPrefix("[errand #\(entry.requestID)] ") {
            problems.append("does not start with its prefix: \(text.debugDescription)")
        }
        for line in lines.dropFirst() where !line.hasPrefix("  ") {
            problems.append("line not indented: \(line.debugDescription) in \(text.debugDescription)")
        }
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("[errand #999]") {
            problems.append("forged line: \(line.debugDescription)")
        }
        return problems
    }
}
