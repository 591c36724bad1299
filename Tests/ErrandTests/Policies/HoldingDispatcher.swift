import Errand
import ErrandSync
import Foundation

/// A dispatcher that holds every request open until the test answers it, and counts how many
/// were open at once.
final class HoldingDispatcher: NetworkDispatcher {
    private struct Held {
        let id: Int
        let request: RequestData
        let onSuccess: @Sendable (NetworkResponse) -> Void
        let onError: @Sendable (NetworkError) -> Void
    }

    private struct State {
        var held: [Held] = []
        var started: [RequestData] = []
        var nextID = 0
        var mostOpen = 0
        var cancelled = 0
    }

    private let state = Locked(State())

    /// Every request received, in order.
    var started: [RequestData] { state.withLock { $0.started } }
    /// How many requests are open now.
    var openCount: Int { state.withLock { $0.held.count } }
    /// The most requests that were open at once.
    var mostOpen: Int { state.withLock { $0.mostOpen } }
    /// How many open requests were cancelled.
    var cancelledCount: Int { state.withLock { $0.cancelled } }

    func dispatch(
        request: RequestData, onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.held.append(
                Held(id: state.nextID, request: request, onSuccess: onSuccess, onError: onError))
            state.started.append(request)
            state.mostOpen = max(state.mostOpen, state.held.count)
            return state.nextID
        }
        return CancellableAction { [self] in
            let held = state.withLock { state in
                state.held.firstIndex { $0.id == id }.map { index in
                    state.cancelled += 1
                    return state.held.remove(at: index)
                }
            }
            held?.onError(NetworkError(code: .cancelled, message: "cancelled", request: request))
        }
    }

    /// Answers the oldest open request with `status` and `body`; `false` when none is open.
    @discardableResult
    func answerOldest(status: Int = 200, body: Data = Data()) -> Bool {
        let oldest = state.withLock { state in state.held.isEmpty ? nil : state.held.removeFirst() }
        guard let oldest else { return false }
        oldest.onSuccess(NetworkResponse(statusCode: status, body: body, request: oldest.request))
        return true
    }

    /// Answers the oldest open request that `matches`, with a body of its own making; `false`
    /// when none is open.
    @discardableResult
    func answerOldest(
        where matches: (RequestData) -> Bool = { _ in true }, status: Int = 200, headers: HTTPHeaders,
        body: (RequestData) -> String
    ) -> Bool {
        let held = state.withLock { state in
            state.held.firstIndex { matches($0.request) }.map { state.held.remove(at: $0) }
        }
        guard let held else { return false }
        held.onSuccess(
            NetworkResponse(
                statusCode: status, headers: headers, body: Data(body(held.request).utf8),
                request: held.request))
        return true
    }

    /// Fails the oldest open request with `code`; `false` when none is open.
    @discardableResult
    func failOldest(_ code: NetworkError.Code) -> Bool {
        let oldest = state.withLock { state in state.held.isEmpty ? nil : state.held.removeFirst() }
        guard let oldest else { return false }
        oldest.onError(NetworkError(code: code, message: "failed by the test", request: oldest.request))
        return true
    }
}
