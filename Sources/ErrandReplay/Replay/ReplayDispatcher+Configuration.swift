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
        /// before it is compared; credentials, cookies and tokens by default.
        public var redaction: HAR.Redaction
        /// Whether a recorded redirect (a 3xx whose `Location` has a recording later in the
        /// cassette) is followed on replay, as URLSession follows it live; `true` by default.
        public var followsRedirects: Bool
        /// Whether replay answers at once (the default) or after the recorded time.
        public var timing: Timing
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
        /// configuration's clock; `0.5` replays twice as fast.
        case recorded(factor: Double)
    }
}
