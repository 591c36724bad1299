import Errand
import ErrandPolicies
import ErrandTestSupport

/// One randomly built situation: a chain of policies over a scripted server, the requests sent
/// through it one after another, and when the last one is cancelled. Rebuilt exactly from its seed.
struct ChaosScenario: Sendable, CustomStringConvertible {
    /// A policy in the chain.
    enum Layer: Sendable, Hashable, CustomStringConvertible {
        case intercepting(failing: Bool)
        case authenticating(maximumRefreshes: Int)
        case retrying(maximumAttempts: Int)
        /// A limit, and how long a request may wait for its turn (seconds of the clock; `nil`: forever).
        case queueing(limit: Int, timeout: Int?)
        case caching
        case logging(LogLevel)
        case measuring
        case recording

        var description: String {
            switch self {
            case .intercepting(let failing): failing ? "intercepting(failing)" : "intercepting"
            case .authenticating(let maximumRefreshes):
                "authenticating(maximumRefreshes: \(maximumRefreshes))"
            case .retrying(let maximumAttempts): "retrying(maximumAttempts: \(maximumAttempts))"
            case .queueing(let limit, let timeout):
                "queueing(limit: \(limit)\(timeout.map { ", timeout: \($0) s" } ?? ""))"
            case .caching: "caching"
            case .logging(let level): "logging(\(level))"
            case .measuring: "measuring"
            case .recording: "recording"
            }
        }
    }

    /// What the server answers to one request it receives.
    enum Answer: Sendable, Hashable {
        case ok
        /// A 200 with `Cache-Control: public, max-age=600`.
        case okCacheable
        case unauthorized
        case tooManyRequests(retryAfter: Int)
        case unavailable
        case timedOut
        /// A transport failure a retry may cure (`URLError.networkConnectionLost`).
        case connectionLost
        /// A transport failure no retry cures (`URLError.badServerResponse`).
        case brokenResponse
        /// A 200 that takes five seconds of the clock.
        case slow
    }

    /// What the token refresh does when it runs.
    struct Refresh: Sendable, Hashable {
        enum Kind: Sendable, Hashable {
            /// Issues a new access token.
            case issues
            /// The token endpoint refuses (400): the session ends.
            case refused
            /// The token endpoint cannot be reached (timed out): the tokens are kept.
            case outage
        }

        var kind: Kind
        /// Takes a second of the clock first.
        var slow: Bool
    }

    /// How the test sends a request.
    enum Entry: Sendable, Hashable {
        /// `dispatch(request:onSuccess:onError:)` on the outermost policy.
        case dispatch
        /// `try await dispatcher.dispatch(request)`.
        case dispatchAsync
        /// `Request<Item>.execute(dispatcher:callbackQueue:onSuccess:onError:)`.
        case execute
        /// `try await Request<Item>.execute(dispatcher:)`.
        case executeAsync

        var isAsync: Bool { self == .dispatchAsync || self == .executeAsync }

        /// The async entry of the same kind.
        mutating func makeAsync() {
            if self == .dispatch { self = .dispatchAsync }
            if self == .execute { self = .executeAsync }
        }
    }

    /// When the last request is cancelled.
    enum Moment: Sendable, Hashable {
        case never
        /// Its task is cancelled before it dispatches anything.
        case beforeDispatch
        /// Right after `dispatch` returns, racing whatever runs.
        case rightAfterDispatch
        /// While a slow answer is on its way.
        case duringDispatch
        /// While a retry waits out its backoff.
        case duringRetryWait
        /// While the token refresh runs.
        case duringRefresh
        /// After its callback.
        case afterCompletion
    }

    /// One request of the scenario.
    struct Call: Sendable, Hashable {
        var method: HTTPMethod
        var entry: Entry
    }

    let seed: UInt64
    /// Innermost first: the first layer wraps the server, the last one is called.
    let layers: [Layer]
    let answers: [Answer]
    let refreshes: [Refresh]
    let calls: [Call]
    /// Requests sent all at once after `calls`; usually none. When there are some, the cancel
    /// moment applies to the first of them. Otherwise a moment of waiting (during dispatch, a
    /// retry wait or a refresh) applies to whichever of `calls` reaches it first, and the
    /// requests after it are not sent; the other moments apply to the last of `calls`.
    let burst: [Call]
    let cancel: Moment

    /// Builds the scenario of `seed`.
    init(seed: UInt64) {
        self.seed = seed
        var random = SplitMix64(seed: seed)
        var layers: [Layer] = []
        if random.chance(45) { layers.append(.intercepting(failing: random.chance(8))) }
        if random.chance(55) {
            layers.append(.authenticating(maximumRefreshes: Int.random(in: 1...5, using: &random)))
        }
        if random.chance(65) {
            layers.append(.retrying(maximumAttempts: Int.random(in: 1...4, using: &random)))
        }
        if random.chance(35) {
            let limit = Int.random(in: 1...3, using: &random)
            layers.append(.queueing(limit: limit, timeout: random.weighted([(2, nil), (1, 50), (1, 250)])))
        }
        if random.chance(40) { layers.append(.caching) }
        if random.chance(35) {
            layers.append(.logging(LogLevel.allCases.randomElement(using: &random) ?? .basic))
        }
        if random.chance(35) { layers.append(.measuring) }
        if random.chance(12) { layers.append(.recording) }
        layers.shuffle(using: &random)
        var answers: [Answer] = (0..<Int.random(in: 1...10, using: &random)).map { _ in
            let retryAfter = random.weighted([(3, 0), (4, 1), (3, 3), (1, 120)])
            return random.weighted([
                (30, .ok), (8, .okCacheable), (14, .unauthorized),
                (10, .tooManyRequests(retryAfter: retryAfter)),
                (14, .unavailable), (7, .timedOut), (5, .connectionLost), (3, .brokenResponse), (9, .slow),
            ])
        }
        var refreshes: [Refresh] = (0..<Int.random(in: 0...3, using: &random)).map { _ in
            Refresh(
                kind: random.weighted([(6, .issues), (2, .refused), (2, .outage)]), slow: random.chance(50))
        }
        let makeCall = { (random: inout SplitMix64) in
            Call(
                method: random.chance(85) ? .get : .post,
                entry: random.weighted([
                    (5, .dispatch), (2, .dispatchAsync), (2, .execute), (1, .executeAsync),
                ]))
        }
        var calls = (0..<Int.random(in: 1...3, using: &random)).map { _ in makeCall(&random) }
        cancel = random.weighted([
            (5, .never), (1, .beforeDispatch), (2, .rightAfterDispatch), (2, .duringDispatch),
            (2, .duringRetryWait), (2, .duringRefresh), (1, .afterCompletion),
        ])
        var burst: [Call] = []
        if random.chance(30) {
            burst = (0..<Int.random(in: 2...4, using: &random)).map { _ in makeCall(&random) }
        }
        // Only a task can be cancelled before it dispatches.
        if cancel == .beforeDispatch {
            if burst.isEmpty {
                calls[calls.count - 1].entry.makeAsync()
            } else {
                burst[0].entry.makeAsync()
            }
        }
        Self.steer(toward: cancel, &layers, &answers, &refreshes, &random)
        self.layers = layers
        self.answers = answers
        self.refreshes = refreshes
        self.calls = calls
        self.burst = burst
    }

    var description: String {
        let chain = (["server"] + layers.map { "\($0)" }).joined(separator: " ▸ ")
        let calls = calls.map { "\($0.method) by \($0.entry)" }.joined(separator: ", ")
        let burst = burst.map { "\($0.method) by \($0.entry)" }.joined(separator: ", ")
        return """
            scenario seed 0x\(String(seed, radix: 16)):
              chain (innermost first): \(chain)
              answers: \(answers.map { "\($0)" }.joined(separator: ", "))
              refreshes: \(refreshes.map { "\($0.kind)\($0.slow ? " (slow)" : "")" }.joined(separator: ", "))
              requests one after another: \(calls)
              requests all at once after them: \(burst.isEmpty ? "none" : burst)
              cancelled: \(cancel), the \(self.burst.isEmpty ? "last request" : "first request sent at once")
            """
    }
}
