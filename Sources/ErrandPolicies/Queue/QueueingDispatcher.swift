import Errand
import Foundation

/// A dispatcher that lets at most a fixed number of requests be in flight through the
/// dispatcher it wraps, and makes the others wait their turn, first in first out. Made with
/// ``Errand/NetworkDispatcher/limitingConcurrency(to:defaultTimeout:clock:)``.
///
/// - A request flagged `RequestData.bypassesQueue` (a token refresh, say) goes straight
///   through, whatever the queue holds, and does not take a slot.
/// - Cancelling a waiting request takes it out of line at once and reports `cancelled`, once.
/// - A request's deadline counts from when it is handed to the queue: a request whose
///   `RequestData.timeout` (or, when it has none, the queue's `defaultTimeout`) passes while
///   it waits fails with `timedOut` and leaves the line; a request that waited is sent on with
///   what is left of its timeout.
/// - Nothing starves: the line is strictly first in first out, and a finished request hands its
///   slot to the next one directly.
///
/// The queue's logic is its line (`RequestQueue`), where a waiting request is a small entry of
/// callbacks, not a task. Outermost, `dispatch` puts the request in that line and starts no task;
/// a request that finds a free slot is sent at once, and its handle is the wrapped dispatcher's
/// own. Inside other policies, `send` waits in the same line inline in their task. Copies share
/// one queue.
public struct QueueingDispatcher: WrappingDispatcher, AsyncPolicy {
    /// The dispatcher that sends the requests.
    public let base: any NetworkDispatcher
    private let queue: RequestQueue
    /// Stamps each request with its session, so that one that waited across a sign-out or an
    /// account switch does not go out with the next session's token (it fails with
    /// `sessionEnded`).
    private let stamper: SessionStamper

    /// Creates a queue in front of `base`.
    ///
    /// - Parameters:
    ///   - base: The dispatcher that sends the requests.
    ///   - maximumConcurrentRequests: How many requests may be in flight at once. Values below 1
    ///     are raised to 1 (a queue that admits nothing would hold every request until its
    ///     deadline); ``maximumConcurrentRequests`` reads the limit in force.
    ///   - defaultTimeout: The deadline, in seconds from entering the queue, of a request whose
    ///     `timeout` is `nil`; `.infinity` (the default) for none.
    ///   - clock: The clock deadlines are measured on; inject a manual clock in tests.
    public init(
        base: any NetworkDispatcher, maximumConcurrentRequests: Int,
        defaultTimeout: TimeInterval = .infinity, clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.base = base
        self.queue = RequestQueue(
            limit: maximumConcurrentRequests, defaultTimeout: defaultTimeout, clock: ElapsedClock(clock))
        self.stamper = SessionStamper(below: base)
    }

    /// How many requests may be in flight at once (at least 1).
    public var maximumConcurrentRequests: Int { queue.limit }
    /// The deadline, in seconds, of a request whose `timeout` is `nil`; `.infinity` for none.
    public var defaultTimeout: TimeInterval { queue.defaultTimeout }
    /// How many requests hold a slot now (requests that bypass the queue are not counted).
    public var inFlightCount: Int { queue.inFlightCount }
    /// How many requests are waiting for a slot now.
    public var waitingCount: Int { queue.waitingCount }

    /// Sends the request when a slot is free, or puts it in line.
    @discardableResult
    public func dispatch(
        request: RequestData,
        onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        guard !request.bypassesQueue else {
            return base.dispatch(request: request, onSuccess: onSuccess, onError: onError)
        }
        // A free slot: sent at once, and the wrapped dispatcher's handle cancels it, so neither a
        // ticket nor a starter is made.
        if queue.claimSlot() { return sendHoldingSlot(request, onSuccess: onSuccess, onError: onError) }
        let request = stamper.stamped(request)
        let ticket = QueueTicket(queue: queue)
        let start: @Sendable (RequestData) -> Void = { [self] request in
            ticket.started(sendHoldingSlot(request, onSuccess: onSuccess, onError: onError))
        }
        if let id = queue.enter(request, admit: start, reject: onError) {
            ticket.wait(id)
        } else {
            start(request)
        }
        return ticket
    }

    /// Sends a request that holds a slot, and frees the slot when it ends.
    private func sendHoldingSlot(
        _ request: RequestData, onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        base.dispatch(request: request, onSuccess: onSuccess, onError: onError) { [queue] _ in queue.release()
        }
    }

    /// Waits for a slot (unless the request bypasses the queue), then sends the request inline.
    func send(_ request: RequestData) async throws(NetworkError) -> NetworkResponse {
        guard !request.bypassesQueue else { return try await base.sendInline(request) }
        let admitted = try await queue.turn(for: stamper.stamped(request))
        defer { queue.release() }
        return try await base.sendInline(admitted)
    }
}

extension NetworkDispatcher {
    /// This dispatcher with at most `limit` requests in flight at once; the others wait their
    /// turn, first in first out.
    ///
    /// - Parameters:
    ///   - limit: How many requests may be in flight at once; values below 1 count as 1.
    ///   - defaultTimeout: The deadline, in seconds from entering the queue, of a request whose
    ///     `timeout` is `nil`; `.infinity` (the default) for none.
    ///   - clock: The clock deadlines are measured on; inject a manual clock in tests.
    public func limitingConcurrency(
        to limit: Int, defaultTimeout: TimeInterval = .infinity,
        clock: any Clock<Duration> = ContinuousClock()
    ) -> QueueingDispatcher {
        QueueingDispatcher(
            base: self, maximumConcurrentRequests: limit, defaultTimeout: defaultTimeout, clock: clock)
    }
}
