import Foundation

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
                return "All \(recordingCount) recordings of \(cassette.path) were played."
            }
            var lines = [
                "\(unplayed.count) of \(recordingCount) recordings of \(cassette.path) were never played "
                    + "(mode \(mode)):"
            ]
            lines += unplayed.map { "  entry \($0.entryIndex): \($0.method) \($0.url)" }
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
