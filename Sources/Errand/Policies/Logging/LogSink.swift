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
    /// and `.error` for failures. The text is already redacted, so it is logged as public.
    @available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
    public struct OSLogSink: LogSink {
        /// The logger entries go to.
        public let logger: Logger

        /// Creates a sink.
        ///
        /// - Parameter logger: The logger; subsystem `Errand`, category `network` when omitted.
        public init(_ logger: Logger = Logger(subsystem: "Errand", category: "network")) {
            self.logger = logger
        }

        /// Writes `line` to the logger.
        ///
        /// - Parameter line: The entry.
        public func log(_ line: LogLine) {
            let text = line.text
            switch line.event {
            case .failure: logger.error("\(text, privacy: .public)")
            case .request, .response: logger.debug("\(text, privacy: .public)")
            }
        }
    }
#endif
