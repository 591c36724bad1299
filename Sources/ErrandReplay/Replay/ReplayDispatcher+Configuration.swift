import Foundation

extension ReplayDispatcher {
    /// Everything about a replay dispatcher but its cassette, base URL, mode and upstream.
    ///
    /// ```swift
    /// let configuration = ReplayDispatcher.Configuration {
    ///     $0.matching.ignoredQueryItems = ["timestamp"]
    ///     $0.matching.ignoredBodyPaths = ["meta.requestId"]
    ///     $0.whenExhausted = .repeatLast
    /// }
    /// ```
    public struct Configuration: Sendable {
        /// Which recordings answer a request.
        public var matching: Matching
        /// What happens when every recording that matches a request has been played: fail
        /// (the default) or play the last one again.
        public var whenExhausted: Exhaustion
        /// What is hidden before a recording is written, and how the request is redacted
        /// before it is compared; credentials, cookies and tokens by default. Its `vocabulary`
        /// is Errand's shared `SecretVocabulary`: `$0.redaction.vocabulary.insert("ssn")`.
        public var redaction: HAR.Redaction
        /// Whether a recorded redirect (a 3xx whose `Location` has a recording later in the
        /// cassette) is followed on replay, as URLSession follows it live; `true` by default.
        public var followsRedirects: Bool
        /// Whether replay answers at once (the default) or after the recorded time.
        public var timing: Timing
        /// The deadline, in seconds, of a replayed request that sets no `timeout` of its own; 60 by
        /// default, as for `URLSessionDispatcher`. `.infinity` means no deadline.
        ///
        /// A deadline only matters with ``Timing/recorded(factor:)``: a recording that took longer
        /// than the request's deadline fails with `timedOut` when the deadline passes, as the live
        /// request would have.
        public var timeout: TimeInterval
        /// The clock that replay waits on and recording times with; inject one in tests.
        public var clock: any Clock<Duration>
        /// The wall-clock time a recording is stamped with.
        public var now: @Sendable () -> Date
        /// The environment variable that overrides the mode; `ERRAND_REPLAY_MODE` by default.
        public var modeVariable: String
        /// Whether recording (and passthrough) may reach the network when the environment says
        /// CI; `false` by default, so a CI run only ever replays.
        public var allowsRecordingOnCI: Bool
        /// The environment read for the mode override and for CI detection; the process's
        /// environment by default, injectable for tests.
        public var environment: [String: String]

        /// Creates the default configuration.
        public init() {
            matching = Matching()
            whenExhausted = .fail
            redaction = .default
            followsRedirects = true
            timing = .instant
            timeout = 60
            clock = ContinuousClock()
            now = { Date() }
            modeVariable = "ERRAND_REPLAY_MODE"
            allowsRecordingOnCI = false
            environment = ProcessInfo.processInfo.environment
        }

        /// Creates a configuration by adjusting the default one.
        ///
        /// - Parameter configure: Changes to make to the default configuration.
        public init(_ configure: (inout Configuration) -> Void) {
            self.init()
            configure(&self)
        }
    }

    /// What happens once every recording that matches a request has been played.
    public enum Exhaustion: Sendable, Hashable {
        /// Fail with `unmatchedRequest`, saying the recording was already played.
        case fail
        /// Play the last matching recording again.
        case repeatLast
    }

    /// How long a replayed answer takes.
    public enum Timing: Sendable, Hashable {
        /// At once: the answer is delivered before `dispatch` returns.
        case instant
        /// After the recorded time of the exchange multiplied by `factor`, waited on the
        /// configuration's clock; `0.5` replays twice as fast. The request's deadline bounds
        /// the wait: past it, the request fails with `timedOut`.
        case recorded(factor: Double)
    }
}

extension ReplayDispatcher {
    /// How a replay dispatcher uses its cassette and its upstream: Ruby VCR's record modes.
    ///
    /// The mode passed in code can be overridden by an environment variable
    /// (`ERRAND_REPLAY_MODE` unless ``Configuration/modeVariable`` names another), so a
    /// cassette is re-recorded without editing the test: `ERRAND_REPLAY_MODE=newEpisodes swift test`.
    /// When the environment says CI, every mode acts as ``replayOnly`` unless
    /// ``Configuration/allowsRecordingOnCI`` is set, so a CI run never reaches the network.
    public enum Mode: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Replay only, never the network: a request without a recording fails with
        /// `unmatchedRequest`. VCR's `none`.
        case replayOnly
        /// Record when the cassette file does not exist yet; once it exists, replay only.
        case once
        /// Replay what has a recording; send the rest upstream and append it to the cassette.
        case newEpisodes
        /// Send everything upstream and record it, replacing the cassette's recordings with
        /// this run's when the first one is written. VCR's `all`.
        case recordAll
        /// Send everything upstream, as if there were no replay dispatcher: the cassette is
        /// neither read nor written.
        case passthrough

        /// Reads a mode from an environment value.
        ///
        /// Accepts the case names in any case, with or without `_` and `-` (`newEpisodes`,
        /// `new_episodes`, `NEW-EPISODES`), and VCR's names `none` (``replayOnly``), `all`
        /// (``recordAll``) and `new_episodes`.
        ///
        /// - Parameter environmentValue: The variable's value.
        public init?(environmentValue: String) {
            let folded = String(
                environmentValue.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " })
            switch folded {
            case "replayonly", "none", "replay": self = .replayOnly
            case "once": self = .once
            case "newepisodes": self = .newEpisodes
            case "recordall", "all", "record": self = .recordAll
            case "passthrough", "off": self = .passthrough
            default: return nil
            }
        }

        /// The case name, as the environment variable takes it.
        public var description: String { rawValue }
    }
}
