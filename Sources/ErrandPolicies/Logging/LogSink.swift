import Errand
import ErrandSync
import Foundation

/// Where the logging policy writes: a stream, `os.Logger`, or the app's own logging.
///
/// Called from any thread, once per entry, in the order the events happen for one request.
/// Entries of different requests may interleave; ``LogLine/requestID`` tells them apart.
public protocol LogSink: Sendable {
    /// Writes one entry.
    ///
    /// - Parameter line: The entry, already redacted.
    func log(_ line: LogLine)
}

/// A sink that hands each entry to a closure, for routing into an app's own logging.
public struct ClosureLogSink: LogSink {
    private let body: @Sendable (LogLine) -> Void

    /// Creates a sink.
    ///
    /// - Parameter body: Called with each entry.
    public init(_ body: @escaping @Sendable (LogLine) -> Void) {
        self.body = body
    }

    /// Hands `line` to the closure.
    ///
    /// - Parameter line: The entry.
    public func log(_ line: LogLine) { body(line) }
}

/// A sink that writes each entry to a file handle, standard error by default, as whole lines.
///
/// Entries are written under a lock, one write each, so the lines of requests running at the
/// same time never mix within a line.
public final class StreamLogSink: LogSink {
    private let handle: Locked<FileHandle>

    /// Creates a sink.
    ///
    /// - Parameter handle: Where lines go; standard error when omitted.
    public init(_ handle: FileHandle = .standardError) {
        self.handle = Locked(handle)
    }

    /// Writes `line`'s text and a newline.
    ///
    /// - Parameter line: The entry.
    public func log(_ line: LogLine) {
        let data = Data((line.text + "\n").utf8)
        handle.withLock { handle in
            // A closed or full stream must not take the request down with it.
            try? handle.write(contentsOf: data)
        }
    }
}

#if canImport(os)
    import os

    /// A sink that writes each entry to an `os.Logger`, at `.debug` for requests and responses
    /// and `.error` for failures, private unless told otherwise.
    ///
    /// The text is redacted before it arrives, but redaction hides only the secrets it knows
    /// of: whatever it misses (a customer's details in a body, an identifier in a path) would
    /// stay readable in the unified log and in every sysdiagnose a user sends. So entries are
    /// logged ``LogPrivacy/private`` by default, readable in Xcode's console while debugging;
    /// choose ``LogPrivacy/public`` only for an app whose traffic carries nothing personal.
    @available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
    public struct OSLogSink: LogSink {
        /// The logger entries go to.
        public let logger: Logger
        /// Whether the entries' text is readable in the unified log.
        public let privacy: LogPrivacy

        /// Creates a sink whose entries are private in the unified log.
        ///
        /// - Parameter logger: The logger; subsystem `Errand`, category `network` when omitted.
        public init(_ logger: Logger = Logger(subsystem: "Errand", category: "network")) {
            self.init(logger, privacy: UnifiedLogMark.defaultPrivacy)
        }

        /// Creates a sink with the privacy you choose.
        ///
        /// - Parameters:
        ///   - logger: The logger; subsystem `Errand`, category `network` when omitted.
        ///   - privacy: Whether the entries' text is readable in the unified log.
        public init(_ logger: Logger = Logger(subsystem: "Errand", category: "network"), privacy: LogPrivacy)
        {
            self.logger = logger
            self.privacy = privacy
        }

        /// Writes `line` to the logger.
        ///
        /// - Parameter line: The entry.
        public func log(_ line: LogLine) {
            let text = line.text
            // `privacy:` takes a literal member, never a variable: one call per case.
            let mark = UnifiedLogMark(line.event, privacy: privacy)
            switch (mark.level, mark.privacy) {
            case (.error, .private): logger.error("\(text, privacy: .private)")
            case (.error, .public): logger.error("\(text, privacy: .public)")
            case (.debug, .private): logger.debug("\(text, privacy: .private)")
            case (.debug, .public): logger.debug("\(text, privacy: .public)")
            }
        }
    }
#endif
