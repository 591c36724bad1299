import Foundation

/// Where the app writes: results to standard output, notes and errors to standard error.
///
/// Standard output holds only what the server answered, so a run against the recordings and a
/// run against a live server print the same bytes there; the environment banner, the log lines
/// and the error messages go to standard error.
enum Console {
    /// Writes a line of results.
    static func out(_ line: String = "") {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Writes lines of results, such as a table.
    static func out(lines: [String]) {
        for line in lines { out(line) }
    }

    /// Writes a line of commentary (the banner, hints).
    static func note(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// A failure the app reports: a message for the person at the terminal, and the exit status.
struct ExampleFailure: Error, CustomStringConvertible {
    /// What went wrong and what to do about it.
    let message: String
    /// 2 for a mistake on the command line, 1 for a failed request.
    let status: Int32

    /// A mistake on the command line.
    static func usage(_ message: String) -> ExampleFailure {
        ExampleFailure(
            message: message + "\nRun `swift run Example help` for the commands and options.", status: 2)
    }

    var description: String { message }
}
