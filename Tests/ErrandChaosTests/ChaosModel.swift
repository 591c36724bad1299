import Errand

/// What a request must end with.
enum ChaosOutcome: Equatable, Sendable, CustomStringConvertible {
    /// A raw response: its status and the id in its body (0 when it has none).
    case response(status: Int, id: Int)
    /// A decoded item.
    case value(Item)
    /// A failure: its code, the status it kept, and how many attempts it says were made.
    case failure(NetworkError.Code, status: Int?, attempts: Int)

    var description: String {
        switch self {
        case .response(let status, let id): "response \(status) (id \(id))"
        case .value(let item): "value \(item)"
        case .failure(let code, let status, let attempts):
            "failure \(code)\(status.map { " status \($0)" } ?? "") attempts \(attempts)"
        }
    }
}

/// The chain's rules written out plainly: what each policy does with what the server answers.
/// The chaos test runs the same requests through the real chain and through this model, and
/// the outcomes must agree.
struct ChaosModel {
    private struct Response {
        var status: Int
        var id: Int
        var cacheable: Bool
        var retryAfter: Int?
    }

    private struct Failure: Error {
        var code: NetworkError.Code
        var status: Int?
        var attempts = 1
        /// A lost connection, which retry treats as worth another try (like a timeout).
        var connectionLost = false

        var isRetryable: Bool { code == .timedOut || connectionLost }
    }

    private let layers: [ChaosScenario.Layer]
    private let answers: [ChaosScenario.Answer]
    private let refreshScript: [ChaosScenario.Refresh]

    /// How many requests reached the server.
    private(set) var serverRequests = 0
    /// How many refreshes ran.
    private(set) var refreshes = 0
    /// How many times the session ended.
    private(set) var sessionEnds = 0
    /// How many requests passed through each layer, by its index.
    private(set) var passes: [Int]

    private var signedIn = true
    private var token = 0
    private var issued = 0
    private var unconfirmed: Int?
    private var refusals = 0
    /// The cached item for each identity the cache saw: entries answer only their own.
    private var cachedItems: [String: Int] = [:]

    init(_ scenario: ChaosScenario) {
        layers = scenario.layers
        answers = scenario.answers
        refreshScript = scenario.refreshes
        passes = Array(repeating: 0, count: scenario.layers.count)
    }

    /// Sends one request through the modelled chain and returns what its caller must see.
    mutating func send(_ call: ChaosScenario.Call) -> ChaosOutcome {
        let decodes = call.entry == .execute || call.entry == .executeAsync
        do {
            let response = try send(call.method, through: layers.count - 1)
            guard decodes else { return .response(status: response.status, id: response.id) }
            guard (200..<300).contains(response.status) else {
                return .failure(.unacceptableStatus, status: response.status, attempts: 1)
            }
            return .value(Item(id: response.id))
        } catch {
            return .failure(error.code, status: error.status, attempts: error.attempts)
        }
    }

    private mutating func send(_ method: HTTPMethod, through index: Int) throws(Failure) -> Response {
        guard index >= 0 else { return try answer() }
        passes[index] += 1
        switch layers[index] {
        case .intercepting(let failing):
            if failing { throw Failure(code: .invalidRequest) }
            return try send(method, through: index - 1)
        case .authenticating(let maximumRefreshes):
            return try authenticate(method, through: index - 1, maximumRefreshes: maximumRefreshes)
        case .retrying(let maximumAttempts):
            guard method == .get else { return try send(method, through: index - 1) }
            return try retry(method, through: index - 1, maximumAttempts: maximumAttempts)
        case .caching:
            guard method == .get else { return try send(method, through: index - 1) }
            let identity = identity(atLayer: index)
            if let cachedItem = cachedItems[identity] {
                return Response(status: 200, id: cachedItem, cacheable: true, retryAfter: nil)
            }
            let response = try send(method, through: index - 1)
            if response.cacheable { cachedItems[identity] = response.id }
            return response
        case .queueing, .logging, .measuring, .recording:
            return try send(method, through: index - 1)
        }
    }

    /// Whose request the layer at `index` sees: the bearer token an auth policy outside it
    /// attached, or the session an auth policy inside it will sign it in.
    private func identity(atLayer index: Int) -> String {
        let isAuth: (ChaosScenario.Layer) -> Bool = { if case .authenticating = $0 { true } else { false } }
        if layers[(index + 1)...].contains(where: isAuth) { return signedIn ? "token \(token)" : "anonymous" }
        if layers[..<index].contains(where: isAuth) { return "session \(sessionEnds)" }
        return "anonymous"
    }

    private mutating func answer() throws(Failure) -> Response {
        serverRequests += 1
        let number = serverRequests
        let answer = number <= answers.count ? answers[number - 1] : .ok
        switch answer {
        case .ok, .slow: return Response(status: 200, id: number, cacheable: false, retryAfter: nil)
        case .okCacheable: return Response(status: 200, id: number, cacheable: true, retryAfter: nil)
        case .unauthorized: return Response(status: 401, id: 0, cacheable: false, retryAfter: nil)
        case .tooManyRequests(let seconds):
            return Response(status: 429, id: 0, cacheable: false, retryAfter: seconds)
        case .unavailable: return Response(status: 503, id: 0, cacheable: false, retryAfter: nil)
        case .timedOut: throw Failure(code: .timedOut)
        case .connectionLost: throw Failure(code: .transport, connectionLost: true)
        case .brokenResponse: throw Failure(code: .transport)
        }
    }
}

extension ChaosModel {
    /// `RetryingDispatcher` with `maximumAttempts`, the default statuses and a 60 s cap on
    /// `Retry-After`.
    private mutating func retry(_ method: HTTPMethod, through index: Int, maximumAttempts: Int)
        throws(Failure) -> Response
    {
        var attempt = 1
        while true {
            let outcome: Result<Response, Failure>
            do {
                outcome = .success(try send(method, through: index))
            } catch {
                outcome = .failure(error)
            }
            if attempt < maximumAttempts, Self.isRetried(outcome) {
                attempt += 1
                continue
            }
            switch outcome {
            case .success(let response):
                guard attempt > 1, [408, 429, 500, 502, 503, 504].contains(response.status) else {
                    return response
                }
                throw Failure(code: .unacceptableStatus, status: response.status, attempts: attempt)
            case .failure(var failure):
                if attempt > 1 { failure.attempts = attempt }
                throw failure
            }
        }
    }

    private static func isRetried(_ outcome: Result<Response, Failure>) -> Bool {
        switch outcome {
        case .success(let response):
            guard [408, 429, 500, 502, 503, 504].contains(response.status) else { return false }
            return response.retryAfter.map { $0 <= 60 } ?? true
        case .failure(let failure):
            return failure.isRetryable
        }
    }

    /// `AuthenticatingDispatcher` over `InMemoryTokenStorage`, for requests sent one at a time.
    private mutating func authenticate(_ method: HTTPMethod, through index: Int, maximumRefreshes: Int)
        throws(Failure) -> Response
    {
        guard signedIn else { return try send(method, through: index) }
        let sent = token
        let response = try send(method, through: index)
        guard response.status == 401 else {
            if unconfirmed == sent { unconfirmed = nil }
            return response
        }
        if unconfirmed == sent {
            unconfirmed = nil
            refusals += 1
            if refusals >= maximumRefreshes {
                refusals = 0
                throw endSession()
            }
        }
        try refresh()
        let renewed = token
        let retried = try send(method, through: index)
        if retried.status != 401, unconfirmed == renewed { unconfirmed = nil }
        return retried
    }

    private mutating func refresh() throws(Failure) {
        refreshes += 1
        let step =
            refreshes <= refreshScript.count
            ? refreshScript[refreshes - 1] : .init(kind: .issues, slow: false)
        switch step.kind {
        case .issues:
            issued += 1
            token = issued
            unconfirmed = issued
        case .refused:
            throw endSession()
        case .outage:
            throw Failure(code: .timedOut)
        }
    }

    private mutating func endSession() -> Failure {
        unconfirmed = nil
        signedIn = false
        sessionEnds += 1
        return Failure(code: .sessionExpired)
    }
}
