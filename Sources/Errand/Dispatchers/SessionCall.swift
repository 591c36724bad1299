import Dispatch
import ErrandSync
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
    private let state: Locked<State>

    init(
        request: RequestData, deadline: TimeInterval,
        onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) {
        self.request = request
        self.deadline = deadline
        self.state = Locked(State(onSuccess: onSuccess, onError: onError))
    }

    /// Starts the task and its deadline on `deadlines`.
    ///
    /// - Returns: `false` when the call had already ended (its deadline passed at once), so the
    ///   task was never resumed.
    @discardableResult
    func start(_ task: URLSessionTask, deadlines: DeadlineScheduler) -> Bool {
        // Held strongly: the scheduler lets go of it when the call finishes (finish() cancels
        // the timer) or expires, and a weak reference would move every retain and release of
        // the call onto the slow path of a side table.
        let timer = deadlines.schedule(after: deadline) { self.expire() }
        let running = Running(task: task, timer: timer, deadlines: deadlines)
        let started = state.withLock { state in
            guard state.onError != nil else { return false }
            state.running = running
            return true
        }
        guard started else {
            deadlines.cancel(timer)
            return false
        }
        startedTask.store(task.taskIdentifier, ordering: .releasing)
        task.resume()
        return true
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
        guard let (onSuccess, _) = finish(stoppingTask: false) else { return }
        onSuccess(response)
    }

    /// Cancels the task and reports `cancelled` at once.
    func cancel() {
        fail(.cancelled(request), stoppingTask: true)
    }

    /// Ends a request whose deadline passed.
    private func expire() {
        fail(
            NetworkError(
                code: .timedOut,
                message: "No complete response within the request's deadline of \(deadline) seconds.",
                request: request),
            stoppingTask: true)
    }

    /// Whether the call has not delivered its outcome yet.
    var isRunning: Bool { state.withLock { $0.onError != nil } }

    /// Delivers `error`, unless an outcome was delivered already.
    func fail(_ error: NetworkError, stoppingTask: Bool = false) {
        guard let (_, onError) = finish(stoppingTask: stoppingTask) else { return }
        onError(error)
    }

    /// Takes the callbacks, the first time only, and forgets the deadline.
    ///
    /// - Parameter stoppingTask: Whether to cancel the task too: on cancel and expiry, not when
    ///   the task reported its own end (cancelling a task that has ended does nothing, and
    ///   FoundationNetworking's `cancel()` waits for the session's queue).
    private func finish(stoppingTask: Bool) -> (
        @Sendable (NetworkResponse) -> Void, @Sendable (NetworkError) -> Void
    )? {
        let taken = state.withLock { state in
            defer { state = State() }
            return state
        }
        guard let onSuccess = taken.onSuccess, let onError = taken.onError else { return nil }
        if let running = taken.running {
            running.deadlines.cancel(running.timer)
            if stoppingTask { running.stopTask() }
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
        let all = response.allHeaderFields
        var fields: [HTTPHeaders.Field] = []
        fields.reserveCapacity(all.count)
        for (name, value) in all {
            // Names and values are strings; interpolation is only the fallback, as it is slow.
            fields.append(
                HTTPHeaders.Field(
                    name: name.base as? String ?? "\(name.base)", value: value as? String ?? "\(value)"))
        }
        fields.sort { $0.name.caseInsensitiveLess($1.name) }
        return HTTPHeaders(fields)
    }
}

/// A started request's task and deadline, held across threads.
///
/// `@unchecked Sendable`: `URLSessionTask` is documented as safe to resume, cancel and query
/// from any thread (it locks internally), but FoundationNetworking does not declare it `Sendable`.
private struct Running: @unchecked Sendable {
    let task: URLSessionTask
    let timer: UInt64
    let deadlines: DeadlineScheduler

    /// Cancels the task from another thread: FoundationNetworking's `cancel()` waits for the
    /// session's queue, which may itself be waiting for the caller (the delegate queue, when
    /// the size limit is crossed; see ``SerialDelegateQueue``).
    func stopTask() {
        DispatchQueue.global().async { task.cancel() }
    }
}
