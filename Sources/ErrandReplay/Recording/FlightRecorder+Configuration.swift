import Errand
import Foundation

extension FlightRecorder {
    /// How much a ``FlightRecorder`` keeps and how it hides secrets.
    ///
    /// The oldest exchanges go first, whichever limit is reached: ``maximumEntries``,
    /// ``maximumAge`` or ``maximumBytes``.
    public struct Configuration: Sendable {
        /// How many exchanges are kept at most; 100 by default. Values below 1 count as 1.
        public var maximumEntries: Int
        /// How long an exchange is kept after it ended; `nil` (the default) for no limit.
        public var maximumAge: Duration?
        /// About how many bytes the kept exchanges may take in memory: URLs, headers and bodies,
        /// plus a fixed allowance per entry; 4 MiB by default. An exchange that alone is larger
        /// is kept without its bodies, with a note in their `comment`; one that is larger even
        /// then is not kept.
        public var maximumBytes: Int
        /// What is hidden before an exchange is kept; ``HAR/Redaction/default`` hides the shared
        /// vocabulary's headers, cookies, query items and body keys.
        public var redaction: HAR.Redaction
        /// The base URL that relative request paths are written against. When `nil`, a relative
        /// path is written against the origin of the URL its response came from.
        public var baseURL: URL?
        /// The application named as the archive's creator.
        public var creator: HAR.Creator

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - maximumEntries: How many exchanges are kept at most.
        ///   - maximumAge: How long an exchange is kept after it ended; `nil` for no limit.
        ///   - maximumBytes: About how many bytes the kept exchanges may take.
        ///   - redaction: What is hidden before an exchange is kept.
        ///   - baseURL: The base URL relative paths are written against.
        ///   - creator: The application named as the archive's creator.
        public init(
            maximumEntries: Int = 100, maximumAge: Duration? = nil, maximumBytes: Int = 4 << 20,
            redaction: HAR.Redaction = .default, baseURL: URL? = nil,
            creator: HAR.Creator = HAR.Creator(name: "Errand flight recorder", version: "1")
        ) {
            self.maximumEntries = maximumEntries
            self.maximumAge = maximumAge
            self.maximumBytes = maximumBytes
            self.redaction = redaction
            self.baseURL = baseURL
            self.creator = creator
        }
    }
}
