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
