import Errand

/// Whether the text of an `OSLogSink` entry is readable in Apple's unified log.
///
/// Redaction hides the secrets Errand knows of (`SecretVocabulary`); what it does not know
/// of (a customer's address in a body, an identifier in a path) stays in the text. An entry
/// marked public is kept in clear in the unified log, where `log collect` and every
/// sysdiagnose a user sends pick it up; a private one is shown only while a debugger is
/// attached or a logging profile lifts the redaction, and reads `<private>` elsewhere.
public enum LogPrivacy: Sendable, Hashable, CaseIterable {
    /// Redacted in the unified log (`<private>`), shown in Xcode's console while debugging.
    case `private`
    /// Kept in clear in the unified log: choose it only when nothing the app logs is personal.
    case `public`
}

/// How `OSLogSink` writes one entry: the level and privacy given to `os.Logger`.
///
/// Apart from the sink, which exists on Apple platforms only, so that the choice is tested on
/// every platform and the sink's body is a plain switch.
struct UnifiedLogMark: Hashable, Sendable {
    /// The `os.Logger` methods an entry goes to.
    enum Level: Hashable, Sendable {
        /// `Logger.debug`: requests and responses, kept in memory only unless asked for.
        case debug
        /// `Logger.error`: failures, persisted.
        case error
    }

    /// The privacy of a sink that was given none: private, since whatever redaction misses
    /// would otherwise stay readable in the unified log and in sysdiagnoses.
    static let defaultPrivacy = LogPrivacy.private

    /// The level the entry is logged at.
    let level: Level
    /// The privacy its text is logged with.
    let privacy: LogPrivacy

    /// The mark of an entry about `event`, written by a sink with `privacy`.
    init(_ event: LogLine.Event, privacy: LogPrivacy) {
        switch event {
        case .failure: level = .error
        case .request, .response: level = .debug
        }
        self.privacy = privacy
    }
}
