import Dispatch
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One `URLSessionDispatcher` request in flight: its task, its deadline timer, and the guard
/// that delivers exactly one outcome, whichever of completion, deadline or cancel comes first.
final class SessionCall: Cancellable {
    private struct State {
        var onSuccess: (@Sendable (NetworkResponse) -> Void)?
        var onError: (@Sendable (NetworkError) -> Void)?
        var running: Running?
    }

    let request: RequestData
    /// The session task's identifier, set when it starts.
    var taskIdentifier: Int { startedTask.load(ordering: .acquiring) }
    private let startedTask = Atomic<Int>(-1)
    private let deadline: TimeInterval
    private let state: Mutex<State>

    init(
        request: RequestData, deadline: TimeInterval,
        onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) {
        self.request = request
        self.deadline = deadline
        self.state = Mutex(State(onSuccess: onSuccess, onError: onError))
    }

    /// Starts the task and the deadline timer.
    func start(_ task: URLSessionTask) {
        let timer = DispatchWorkItem { [weak self] in self?.expire() }
        let running = Running(task: task, timer: timer)
        let started = state.withLock { state in
            guard state.onError != nil else { return false }
            state.running = running
            return true
        }
        guard started else { return }
        startedTask.store(task.taskIdentifier, ordering: .releasing)
        DispatchQueue.global().asyncAfter(deadline: .now() + deadline, execute: timer)
        task.resume()
    }

    /// Delivers what the session reported.
    func complete(data: Data?, response: URLResponse?, error: (any Error)?) {
        if let error {
            fail(Self.networkError(for: error, request: request))
            return
        }
        guard let http = response as? HTTPURLResponse else {
            fail(
                NetworkError(
                    code: .transport, message: "The server's answer was not an HTTP response.",
                    request: request))
            return
        }
        let response = NetworkResponse(
            statusCode: http.statusCode, headers: Self.headers(of: http), body: data ?? Data(), url: http.url,
            request: request)
        guard let (onSuccess, _) = finish() else { return }
        onSuccess(response)
    }

    /// Cancels the task and reports `cancelled` at once.
    func cancel() {
        fail(.cancelled(request))
    }

    /// Ends a request whose deadline passed.
    private func expire() {
        fail(
            NetworkError(
                code: .timedOut,
                message: "No complete response within the request's deadline of \(deadline) seconds.",
                request: request))
    }

    private func fail(_ error: NetworkError) {
        guard let (_, onError) = finish() else { return }
        onError(error)
    }

    /// Takes the callbacks, the first time only, and stops the task and the timer.
    private func finish() -> (@Sendable (NetworkResponse) -> Void, @Sendable (NetworkError) -> Void)? {
        let taken = state.withLock { state in
            defer { state = State() }
            return state
        }
        guard let onSuccess = taken.onSuccess, let onError = taken.onError else { return nil }
        if let running = taken.running {
            running.timer.cancel()
            if running.task.state == .running || running.task.state == .suspended { running.task.cancel() }
        }
        return (onSuccess, onError)
    }

    /// The `NetworkError` for an error reported by URLSession.
    static func networkError(for error: any Error, request: RequestData) -> NetworkError {
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else {
            return NetworkError(
                code: .transport, message: "The request failed: \(error.localizedDescription)",
                request: request,
                underlyingError: error)
        }
        let urlError: any Error = (error as? URLError) ?? error
        switch nsError.code {
        case NSURLErrorTimedOut:
            return NetworkError(
                code: .timedOut, message: "The server did not answer in time.", request: request,
                underlyingError: urlError)
        case NSURLErrorCancelled:
            return .cancelled(request)
        default:
            return NetworkError(
                code: .transport,
                message: "The request failed: \(nsError.localizedDescription) (URLError \(nsError.code)).",
                request: request, underlyingError: urlError)
        }
    }

    /// The response's header fields, sorted by name since `HTTPURLResponse` keeps no order.
    static func headers(of response: HTTPURLResponse) -> HTTPHeaders {
        var fields: [HTTPHeaders.Field] = []
        for (name, value) in response.allHeaderFields {
            fields.append(HTTPHeaders.Field(name: "\(name.base)", value: "\(value)"))
        }
        return HTTPHeaders(fields.sorted { $0.name.lowercased() < $1.name.lowercased() })
    }
}

/// A started request's task and deadline timer, held across threads.
///
/// `@unchecked Sendable`: `URLSessionTask` and `DispatchWorkItem` are documented as safe to
/// resume, cancel and query from any thread (each locks internally), but FoundationNetworking
/// and Dispatch on Linux do not declare them `Sendable`.
private struct Running: @unchecked Sendable {
    let task: URLSessionTask
    let timer: DispatchWorkItem
}
