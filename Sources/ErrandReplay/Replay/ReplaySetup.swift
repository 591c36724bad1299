import Errand
import Foundation

/// What a replay dispatcher does, decided once when it is made: the mode after the
/// environment's override, whether the upstream may be used, and whether the cassette is read.
struct ReplaySetup: Sendable {
    /// What happens to a request.
    enum Behaviour: Sendable, Equatable {
        /// Answer from the cassette; a miss is recorded through the upstream when
        /// `recordsMisses`, else it fails.
        case replay(recordsMisses: Bool)
        /// Send upstream and record, whatever the cassette holds.
        case record
        /// Send upstream only.
        case passthrough
    }

    /// The mode in effect.
    let mode: Mode
    /// Where the mode came from, such as `ERRAND_REPLAY_MODE=newEpisodes`, when not from code.
    let modeSource: String?
    /// What happens to a request.
    let behaviour: Behaviour
    /// Why the upstream is not used although the mode would use it, if that is so.
    let refusal: String?
    /// Whether the cassette file existed when the dispatcher was made.
    let cassetteExisted: Bool
    /// A problem that fails every request, such as an unknown mode in the environment.
    let failure: String?

    typealias Mode = ReplayDispatcher.Mode

    /// The variables that CI services set, in the order they are checked.
    static let ciVariables = [
        "CI", "CONTINUOUS_INTEGRATION", "GITHUB_ACTIONS", "GITLAB_CI", "BUILDKITE", "CIRCLECI", "TRAVIS",
        "JENKINS_URL", "TF_BUILD", "TEAMCITY_VERSION", "BITBUCKET_BUILD_NUMBER", "CODEBUILD_BUILD_ID",
        "BITRISE_IO", "APPVEYOR", "DRONE", "SEMAPHORE",
    ]

    /// The variable and value that say the environment is CI, such as `CI=true`, or `nil`.
    static func ciEvidence(in environment: [String: String]) -> String? {
        for name in ciVariables {
            guard let value = environment[name] else { continue }
            let folded = value.trimmingCharacters(in: .whitespaces).lowercased()
            if !["", "0", "false", "no", "off"].contains(folded) { return "\(name)=\(value)" }
        }
        return nil
    }

    init(
        mode configured: Mode, cassette: URL, hasUpstream: Bool, configuration: ReplayDispatcher.Configuration
    ) {
        var mode = configured
        var modeSource: String?
        var failure: String?
        let variable = configuration.modeVariable
        if let value = configuration.environment[variable],
            !value.trimmingCharacters(in: .whitespaces).isEmpty
        {
            if let overridden = Mode(environmentValue: value) {
                mode = overridden
                modeSource = "\(variable)=\(value)"
            } else {
                failure =
                    "The environment variable \(variable)=\(value) is not a replay mode. Use one of "
                    + Mode.allCases.map(\.rawValue).joined(separator: ", ")
                    + " (or VCR's none, all, new_episodes), or unset it."
            }
        }
        let exists = FileManager.default.fileExists(atPath: cassette.path)
        var behaviour: Behaviour
        switch mode {
        case .replayOnly: behaviour = .replay(recordsMisses: false)
        case .once: behaviour = exists ? .replay(recordsMisses: false) : .record
        case .newEpisodes: behaviour = .replay(recordsMisses: true)
        case .recordAll: behaviour = .record
        case .passthrough: behaviour = .passthrough
        }
        var refusal: String?
        if behaviour != .replay(recordsMisses: false) {
            if let evidence = Self.ciEvidence(in: configuration.environment),
                !configuration.allowsRecordingOnCI
            {
                refusal =
                    "recording is refused because the environment says CI (\(evidence)); record on your "
                    + "machine and commit the cassette, or set configuration.allowsRecordingOnCI"
            } else if !hasUpstream {
                refusal =
                    "this dispatcher has no upstream to record through; pass upstream: "
                    + "URLSessionDispatcher(baseURL: …)"
            }
            if refusal != nil { behaviour = .replay(recordsMisses: false) }
        }
        self.mode = mode
        self.modeSource = modeSource
        self.behaviour = behaviour
        self.refusal = refusal
        self.cassetteExisted = exists
        self.failure = failure
    }

    /// The cassette's log when this setup reads it, or the problem that fails every request:
    /// an unknown mode, a cassette that cannot be read, or a missing one that must replay.
    func load(_ cassette: URL, variable: String) -> (log: HAR.Log, failure: NetworkError?) {
        let empty = HAR.Log(creator: HAR.Creator(name: "Errand", version: "0.1.0"))
        if let failure { return (empty, NetworkError(code: .cassette, message: failure)) }
        guard behaviour == .replay(recordsMisses: false), !cassetteExisted else {
            guard readsCassette else { return (empty, nil) }
            do {
                return (try HAR(contentsOf: cassette).log, nil)
            } catch {
                let message = "The cassette cannot be used. \(error) The cassette was left as it is."
                return (empty, NetworkError(code: .cassette, message: message, underlyingError: error))
            }
        }
        let message =
            "The cassette \(cassette.path) does not exist, and mode \(modeDescription) only replays, so "
            + "no request can be answered. Check the cassette's name, or record it on your machine with "
            + "\(variable)=once."
        return (empty, NetworkError(code: .cassette, message: message))
    }

    /// Whether the cassette file is read: not when recording from scratch or passing through.
    var readsCassette: Bool {
        if case .replay = behaviour { return cassetteExisted }
        return false
    }

    /// The mode as a miss message states it, with where it came from and what it does.
    var modeDescription: String {
        var text = mode.rawValue
        if let modeSource { text += " (from \(modeSource))" }
        if mode == .once, cassetteExisted { text += ", and the cassette exists, so it only replays" }
        if let refusal { text += ", but \(refusal)" }
        return text
    }
}
