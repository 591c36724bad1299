import Errand
import Foundation

extension ReplayDispatcher {
    /// Where a test's cassette goes: next to the test file, in `Cassettes/<suite>/<name>.har`.
    ///
    /// ```swift
    /// @Suite struct UserAPITests {
    ///     @Test func fetchesUsers() async throws {
    ///         // …/Tests/AppTests/Cassettes/UserAPITests/fetchesUsers.har
    ///         let cassette = ReplayDispatcher.cassetteURL(suite: Self.self)
    ///     }
    /// }
    /// ```
    ///
    /// The cassettes live in the source tree, where they are committed, rather than in the
    /// test bundle. Characters that do not belong in a file name are replaced by `-`.
    ///
    /// - Parameters:
    ///   - name: The cassette's name; the calling function's name by default, without its
    ///     parameter list.
    ///   - suite: The test suite, whose name names the folder.
    ///   - filePath: The test file; the caller's by default.
    /// - Returns: The cassette's location; the file and folders may not exist yet.
    public static func cassetteURL(
        _ name: String = #function, suite: Any.Type, filePath: String = #filePath
    ) -> URL {
        cassetteURL(name, suite: String(describing: suite), filePath: filePath)
    }

    /// Where a test's cassette goes, with the suite named by a string.
    ///
    /// - Parameters:
    ///   - name: The cassette's name; the calling function's name by default.
    ///   - suite: The folder's name, usually the test suite's.
    ///   - filePath: The test file; the caller's by default.
    /// - Returns: `<folder of filePath>/Cassettes/<suite>/<name>.har`.
    public static func cassetteURL(_ name: String = #function, suite: String, filePath: String = #filePath)
        -> URL
    {
        var base = name
        if let parenthesis = base.firstIndex(of: "(") { base = String(base[..<parenthesis]) }
        if base.hasSuffix(".har") { base.removeLast(4) }
        return URL(fileURLWithPath: filePath).deletingLastPathComponent()
            .appendingPathComponent("Cassettes", isDirectory: true)
            .appendingPathComponent(fileName(suite), isDirectory: true)
            .appendingPathComponent(fileName(base) + ".har")
    }

    private static func fileName(_ text: String) -> String {
        let safe = String(
            text.map { character -> Character in
                character.isASCII && (character.isLetter || character.isNumber || "._-".contains(character))
                    ? character : "-"
            })
        return safe.isEmpty || safe.allSatisfy({ $0 == "." }) ? "cassette" : safe
    }
}

extension ReplayDispatcher {
    /// Which recordings of the cassette have answered a request so far, and which never did.
    ///
    /// A recording that is never played usually means a test no longer sends a request it
    /// once sent, or sends it differently: the cassette is stale. ``ReplayDispatcher/report``
    /// gives the report; ``ReplayDispatcher/assertAllPlayed()`` throws it when something was
    /// not played, which fails a test:
    ///
    /// ```swift
    /// try replay.assertAllPlayed()
    /// ```
    public struct Report: Error, Sendable, CustomStringConvertible {
        /// A recording that was never played.
        public struct Unplayed: Sendable, Hashable {
            /// Its index in the cassette's entries.
            public let entryIndex: Int
            /// Its method.
            public let method: String
            /// Its URL, redacted as the cassette holds it.
            public let url: String
        }

        /// The cassette file.
        public let cassette: URL
        /// The mode in effect.
        public let mode: Mode
        /// How many recordings the cassette holds now.
        public let recordingCount: Int
        /// The recordings never played, in cassette order.
        public let unplayed: [Unplayed]

        /// Whether every recording was played.
        public var allPlayed: Bool { unplayed.isEmpty }

        /// A summary, then one line per recording never played.
        public var description: String {
            guard !unplayed.isEmpty else {
                return "All \(recordingCount) recordings of \(EscapedText.line(cassette.path)) were played."
            }
            var lines = [
                "\(unplayed.count) of \(recordingCount) recordings of \(EscapedText.line(cassette.path)) "
                    + "were never played "
                    + "(mode \(mode)):"
            ]
            lines += unplayed.map { recording in
                let url = SecretVocabulary.default.redactingQuery(ofURL: recording.url)
                return "  entry \(recording.entryIndex): " + EscapedText.line("\(recording.method) \(url)")
            }
            lines.append(
                "The test no longer sends these requests, or sends them differently. Remove them by "
                    + "recording again with \(recordingVariable)=recordAll, or send them.")
            return lines.joined(separator: "\n")
        }

        let recordingVariable: String
    }

    /// Which recordings have been played so far and which have not.
    public var report: Report {
        let (count, unplayed) = state.withLock { state in
            let unplayed = state.index.slots.filter { $0.plays == 0 }.map { slot in
                var redactor = HARRedactor(configuration.redaction)
                return Report.Unplayed(
                    entryIndex: slot.entryIndex, method: slot.request.method,
                    url: redactor.redact(url: slot.request.url))
            }
            return (state.log.entries.count, unplayed)
        }
        return Report(
            cassette: cassette, mode: mode, recordingCount: count, unplayed: unplayed,
            recordingVariable: configuration.modeVariable)
    }

    /// Throws the ``report`` when a recording was never played; use it at the end of a test.
    ///
    /// - Throws: The ``Report``, which lists the recordings never played.
    public func assertAllPlayed() throws(Report) {
        let report = report
        if !report.allPlayed { throw report }
    }
}
