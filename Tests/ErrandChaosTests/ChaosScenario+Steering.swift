import ErrandTestSupport

extension ChaosScenario.Moment {
    /// Whether the moment is one of waiting, which a request may or may not reach.
    var isWait: Bool { self == .duringDispatch || self == .duringRetryWait || self == .duringRefresh }
}

extension ChaosScenario {
    /// Makes a moment of waiting likely to come: a slow answer early on for `duringDispatch`, a
    /// retry policy and an early 503 for `duringRetryWait`, an auth policy, an early 401 and a
    /// slow first refresh for `duringRefresh`.
    static func steer(
        toward moment: Moment, _ layers: inout [Layer], _ answers: inout [Answer],
        _ refreshes: inout [Refresh],
        _ random: inout SplitMix64
    ) {
        let early = Int.random(in: 0..<min(3, answers.count), using: &random)
        switch moment {
        case .duringDispatch:
            answers[early] = .slow
        case .duringRetryWait:
            answers[early] = .unavailable
            if let index = layers.firstIndex(where: { if case .retrying = $0 { true } else { false } }) {
                if case .retrying(let attempts) = layers[index] {
                    layers[index] = .retrying(maximumAttempts: max(2, attempts))
                }
            } else {
                let attempts = Int.random(in: 2...4, using: &random)
                layers.insert(
                    .retrying(maximumAttempts: attempts), at: Int.random(in: 0...layers.count, using: &random)
                )
            }
        case .duringRefresh:
            answers[early] = .unauthorized
            if !layers.contains(where: { if case .authenticating = $0 { true } else { false } }) {
                layers.insert(
                    .authenticating(maximumRefreshes: 5), at: Int.random(in: 0...layers.count, using: &random)
                )
            }
            if refreshes.isEmpty {
                refreshes = [Refresh(kind: .issues, slow: true)]
            } else {
                refreshes[0].slow = true
            }
        case .never, .beforeDispatch, .rightAfterDispatch, .afterCompletion:
            break
        }
    }
}
