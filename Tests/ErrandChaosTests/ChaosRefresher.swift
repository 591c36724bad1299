import Errand
import ErrandPolicies
import ErrandSync

/// The token endpoint of a scenario: runs the scripted refreshes in order (`issues` once they
/// run out), a slow one waiting a second on the manual clock.
final class ChaosRefresher: Sendable {
    private struct State {
        var runs = 0
        var issued = 0
        var pending = 0
    }

    private let script: [ChaosScenario.Refresh]
    private let clock: ChaosClock
    private let signal: ChaosSignal
    private let state = Locked(State())

    init(script: [ChaosScenario.Refresh], clock: ChaosClock, signal: ChaosSignal) {
        self.script = script
        self.clock = clock
        self.signal = signal
    }

    /// How many refreshes ran.
    var runs: Int { state.withLock { $0.runs } }
    /// How many refreshes are waiting on the clock.
    var pending: Int { state.withLock { $0.pending } }

    /// The access token issued by refresh number `number`, 0 being the signed-in one.
    static func token(_ number: Int) -> String { "chaos-access-token-\(number)-zq" }

    func refresh(_ current: TokenPair) async throws -> TokenPair {
        let (step, issued) = state.withLock { state in
            state.runs += 1
            let step = state.runs <= script.count ? script[state.runs - 1] : .init(kind: .issues, slow: false)
            if step.kind == .issues { state.issued += 1 }
            if step.slow { state.pending += 1 }
            return (step, state.issued)
        }
        if step.slow {
            signal.poke()
            defer {
                state.withLock { $0.pending -= 1 }
                signal.poke()
            }
            try await clock.sleep(for: .seconds(1))
        }
        switch step.kind {
        case .issues:
            return TokenPair(accessToken: Self.token(issued), refreshToken: "chaos-refresh-token-zq")
        case .refused:
            throw NetworkError(
                code: .unacceptableStatus, message: "The token endpoint refused the refresh token.",
                response: NetworkResponse(statusCode: 400))
        case .outage:
            throw NetworkError(code: .timedOut, message: "The token endpoint did not answer.")
        }
    }
}
