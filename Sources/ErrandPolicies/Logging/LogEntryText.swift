import Errand

/// The text of one log entry, built so that nothing a caller or a server sends can start a line
/// or run a terminal escape.
///
/// The head line is the only one that starts at the margin, and it starts with the entry's
/// `[errand #N]`; every line after it starts with two spaces. Every piece, the library's own
/// words and numbers as much as a path, a header or a body, goes in through one of the methods
/// below, which hide the request's echoed secrets in it and then write it through
/// ``EscapedText``: one line for the head's pieces and for each header, an indented block for a
/// body. No piece is ever added to ``text`` another way.
struct LogEntryText {
    /// The entry so far.
    private(set) var text: String
    private let echoes: EchoNeedles?
    private let placeholder: String

    /// Starts an entry with its prefix, `[errand #12]`.
    ///
    /// - Parameters:
    ///   - id: The request's number within its policy.
    ///   - echoes: The spellings of the request's secret values, hidden wherever a piece holds
    ///     them; `nil` for none.
    ///   - placeholder: What stands where a hidden value was.
    init(id: Int, hiding echoes: EchoNeedles?, placeholder: String) {
        text = "[errand #\(id)]"
        self.echoes = echoes
        self.placeholder = placeholder
    }

    /// Adds `piece` to the head line, after a space: `→`, `GET /x`, `200`, `12.3 ms`.
    mutating func add(_ piece: String) {
        text += " " + EscapedText.line(hidden(piece))
    }

    /// Adds `line` on a line of its own under the head, indented by two spaces: a header, a note.
    mutating func addLine(_ line: String) {
        text += "\n  " + EscapedText.line(hidden(line))
    }

    /// Adds `body` as lines of their own, each indented by two spaces, cut after `limit` bytes
    /// with how many more there were.
    ///
    /// The request's secrets are hidden before the cut, so that none is left half-shown at it.
    mutating func addBlock(_ body: String, limit: Int) {
        let shown = hidden(body)
        let bytes = shown.utf8
        guard bytes.count > limit else {
            text += "\n" + EscapedText.block(shown)
            return
        }
        // A cut inside a multi-byte character is repaired to U+FFFD, as any invalid text is.
        let kept = String(decoding: bytes.prefix(limit), as: UTF8.self)
        text += "\n" + EscapedText.block(kept + "… (\(bytes.count - limit) B more)")
    }

    private func hidden(_ piece: String) -> String {
        echoes.map { $0.hidden(in: piece, placeholder: placeholder) } ?? piece
    }
}
