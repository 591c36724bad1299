import Errand
import ErrandSync
import Foundation

/// The waiting line and the count of requests in flight behind a ``QueueingDispatcher``.
///
/// One lock guards a first-in-first-out line: a request that finds every slot taken waits as a
/// pair of closures (no task of its own), and a finished request hands its slot straight to the
/// next one in line, so the count in flight never goes over the limit and nothing overtakes.
/// Deadlines of waiting requests share one timer task, armed for the earliest of them on the
/// injected clock. Slots are handed on in a loop rather than by recursion, so a dispatcher that
/// answers before `dispatch` returns does not grow the stack with every waiting request.
final class RequestQueue: Sendable {
    /// A request waiting for its turn.
    struct Waiter: Sendable {
        let request: RequestData
        /// When it joined the line, on the queue's clock.
        let enqueuedAt: Duration
        /// When its deadline passes, on the queue's clock; `nil` for none.
        let deadline: Duration?
        /// Starts the request (with its timeout shortened by the time it waited).
        let admit: @Sendable (RequestData) -> Void
        /// Ends the request without starting it.
        let reject: @Sendable (NetworkError) -> Void
    }

    private struct State {
        var inFlight = 0
        var order: [UInt64] = []
        var head = 0
        var waiting: [UInt64: Waiter] = [:]
        var nextID: UInt64 = 0
        var handoffs: [Waiter] = []
        var draining = false
        var armedFor: Duration?
        var watcher: Task<Void, Never>?
    }

    /// The most requests in flight at once (at least 1).
    let limit: Int
    /// The deadline, in seconds, of a request whose `timeout` is `nil`.
    let defaultTimeout: TimeInterval
    private let clock: ElapsedClock
    private let state = Locked(State())

    init(limit: Int, defaultTimeout: TimeInterval, clock: ElapsedClock) {
        self.limit = max(1, limit)
        self.defaultTimeout = defaultTimeout
        self.clock = clock
    }

    /// How many requests hold a slot now.
    var inFlightCount: Int { state.withLock { $0.inFlight } }
    /// How many requests wait for a slot now.
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Takes a slot when one is free; `false` when the request must wait.
    func claimSlot() -> Bool {
        state.withLock { state in
            guard state.inFlight < limit else { return false }
            state.inFlight += 1
            return true
        }
    }

    /// Takes a slot when one is free (returns `nil`: the caller starts the request itself), or
    /// puts the request in line and returns its ticket for ``cancel(_:)``.
    func enter(
        _ request: RequestData, admit: @escaping @Sendable (RequestData) -> Void,
        reject: @escaping @Sendable (NetworkError) -> Void
    ) -> UInt64? {
        state.withLock { state in
            guard state.inFlight >= limit else {
                state.inFlight += 1
                return nil
            }
            let now = clock.elapsed()
            let deadline = Self.deadlineSeconds(request.timeout ?? defaultTimeout).map { now + .seconds($0) }
            let id = state.nextID
            state.nextID += 1
            state.waiting[id] = Waiter(
                request: request, enqueuedAt: now, deadline: deadline, admit: admit, reject: reject)
            state.order.append(id)
            if let deadline, state.armedFor.map({ deadline < $0 }) ?? true { arm(for: deadline, in: &state) }
            return id
        }
    }

    /// Takes a waiting request out of line and ends it with `cancelled`; does nothing when it has
    /// already been started or ended.
    func cancel(_ id: UInt64) {
        let waiter = state.withLock { state in
            defer { Self.compact(&state) }
            return state.waiting.removeValue(forKey: id)
        }
        waiter?.reject(.cancelled(waiter?.request))
    }

    /// Frees the slot of a request that finished, handing it to the next one in line.
    func release() {
        let drain = state.withLock { state in
            if let next = Self.popNext(&state) {
                state.handoffs.append(next)
            } else {
                state.inFlight -= 1
            }
            guard !state.draining, !state.handoffs.isEmpty else { return false }
            state.draining = true
            return true
        }
        if drain { self.drain() }
    }

    /// Starts handed-over requests until none is left (including those that finishing ones hand on).
    private func drain() {
        while true {
            let next: Waiter? = state.withLock { state in
                guard !state.handoffs.isEmpty else {
                    state.draining = false
                    return nil
                }
                return state.handoffs.removeFirst()
            }
            guard let next else { return }
            start(next)
        }
    }

    /// Starts a request whose turn came, with the time it waited taken off its timeout.
    private func start(_ waiter: Waiter) {
        guard let deadline = waiter.deadline else { return waiter.admit(waiter.request) }
        let now = clock.elapsed()
        guard now < deadline else {
            release()
            return waiter.reject(expired(waiter, now: now))
        }
        var request = waiter.request
        if now > waiter.enqueuedAt { request.timeout = (deadline - now).seconds }
        waiter.admit(request)
    }

    /// Ends every waiting request whose deadline has passed, and arms the timer for the next.
    private func expireDue() {
        let now = clock.elapsed()
        let due = state.withLock { state in
            let due = state.waiting.filter { $0.value.deadline.map { $0 <= now } ?? false }
            for id in due.keys { state.waiting.removeValue(forKey: id) }
            state.watcher?.cancel()
            state.watcher = nil
            state.armedFor = nil
            if let next = state.waiting.values.compactMap(\.deadline).min() { arm(for: next, in: &state) }
            Self.compact(&state)
            return due.sorted { $0.key < $1.key }.map(\.value)
        }
        for waiter in due { waiter.reject(expired(waiter, now: now)) }
    }

    /// Starts the one timer task, for `deadline`, replacing the one armed for a later time.
    private func arm(for deadline: Duration, in state: inout State) {
        state.watcher?.cancel()
        state.armedFor = deadline
        state.watcher = Task { [clock] in
            do {
                try await clock.sleepUntil(deadline)
            } catch {
                return
            }
            self.expireDue()
        }
    }

    /// The first request still in line, taken out of it.
    private static func popNext(_ state: inout State) -> Waiter? {
        while state.head < state.order.count {
            let id = state.order[state.head]
            state.head += 1
            if let waiter = state.waiting.removeValue(forKey: id) {
                compact(&state)
                return waiter
            }
        }
        compact(&state)
        return nil
    }

    /// Drops the line's consumed front, and the tickets of requests that left it early, once they
    /// outnumber the requests still waiting.
    private static func compact(_ state: inout State) {
        guard state.order.count > 64, state.order.count > 2 * state.waiting.count else { return }
        state.order = state.order[state.head...].filter { state.waiting[$0] != nil }
        state.head = 0
    }

    private func expired(_ waiter: Waiter, now: Duration) -> NetworkError {
        let waited = (now - waiter.enqueuedAt).seconds
        let limit = waiter.request.timeout ?? defaultTimeout
        return NetworkError(
            code: .timedOut,
            message: "The request waited \(waited) s in the request queue and its deadline of \(limit) s "
                + "passed before its turn came; raise the timeout or the queue's limit.",
            request: waiter.request)
    }
}
