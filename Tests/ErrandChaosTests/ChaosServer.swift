import Errand
import ErrandSync
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The item the server's 200 answers carry: its id is the number of the request it answered.
struct Item: Codable, Equatable, Sendable {
    let id: Int
}

/// An in-memory server that answers the scenario's script in order (`ok` once it runs out).
/// Slow answers wait on the manual clock and can be cancelled; every request gets exactly one
/// callback.
final class ChaosServer: NetworkDispatcher {
    private struct State {
        var received = 0
        var pendingSlow = 0
    }

    private let answers: [ChaosScenario.Answer]
    private let clock: ChaosClock
    private let signal: ChaosSignal
    private let state = Locked(State())

    init(answers: [ChaosScenario.Answer], clock: ChaosClock, signal: ChaosSignal) {
        self.answers = answers
        self.clock = clock
        self.signal = signal
    }

    /// How many requests reached the server.
    var received: Int { state.withLock { $0.received } }
    /// How many slow answers are on their way.
    var pendingSlow: Int { state.withLock { $0.pendingSlow } }

    func dispatch(
        request: RequestData, onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        let number = state.withLock { state in
            state.received += 1
            return state.received
        }
        let answer = number <= answers.count ? answers[number - 1] : .ok
        let result = Self.result(of: answer, number: number, request: request)
        guard answer == .slow else {
            Self.deliver(result, onSuccess, onError)
            return CancellableAction.none
        }
        state.withLock { $0.pendingSlow += 1 }
        signal.poke()
        let once = Locked(false)
        let finish: @Sendable (Result<NetworkResponse, NetworkError>) -> Void = { [state, signal] outcome in
            let first = once.withLock { done in
                defer { done = true }
                return !done
            }
            guard first else { return }
            state.withLock { $0.pendingSlow -= 1 }
            Self.deliver(outcome, onSuccess, onError)
            signal.poke()
        }
        let task = Task { [clock] in
            do {
                try await clock.sleep(for: .seconds(5))
                finish(result)
            } catch {
                finish(.failure(NetworkError(code: .cancelled, message: "cancelled", request: request)))
            }
        }
        return CancellableAction {
            task.cancel()
            finish(.failure(NetworkError(code: .cancelled, message: "cancelled", request: request)))
        }
    }

    private static func deliver(
        _ result: Result<NetworkResponse, NetworkError>, _ onSuccess: @Sendable (NetworkResponse) -> Void,
        _ onError: @Sendable (NetworkError) -> Void
    ) {
        switch result {
        case .success(let response): onSuccess(response)
        case .failure(let error): onError(error)
        }
    }

    /// The response or failure an answer stands for; `number` is the request's number.
    static func result(of answer: ChaosScenario.Answer, number: Int, request: RequestData)
        -> Result<NetworkResponse, NetworkError>
    {
        let body = Data("{\"id\":\(number)}".utf8)
        let json: HTTPHeaders = ["Content-Type": "application/json"]
        switch answer {
        case .ok, .slow:
            return .success(NetworkResponse(statusCode: 200, headers: json, body: body, request: request))
        case .okCacheable:
            var headers = json
            headers.add("Cache-Control", "public, max-age=600")
            return .success(NetworkResponse(statusCode: 200, headers: headers, body: body, request: request))
        case .unauthorized:
            return .success(NetworkResponse(statusCode: 401, request: request))
        case .tooManyRequests(let retryAfter):
            return .success(
                NetworkResponse(statusCode: 429, headers: ["Retry-After": "\(retryAfter)"], request: request))
        case .unavailable:
            return .success(NetworkResponse(statusCode: 503, request: request))
        case .timedOut:
            return .failure(
                NetworkError(code: .timedOut, message: "The request timed out.", request: request))
        case .connectionLost:
            return .failure(
                NetworkError(
                    code: .transport, message: "The connection was lost.", request: request,
                    underlyingError: URLError(.networkConnectionLost)))
        case .brokenResponse:
            return .failure(
                NetworkError(
                    code: .transport, message: "The response could not be read.", request: request,
                    underlyingError: URLError(.badServerResponse)))
        }
    }
}
