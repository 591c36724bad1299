import Errand
import ErrandSync
import Foundation

/// The dispatches in flight of a ``CoalescingDispatcher`` and the callers sharing each one.
///
/// One lock guards the whole table, so joining, leaving and finishing never see a flight half
/// updated. A flight stays joinable until it finishes or every caller has left; callbacks are
/// always called outside the lock, each member taken out of the table before it is called, so
/// each caller hears exactly once.
final class SharedFlights: Sendable {
    private struct Member {
        let request: RequestData
        let onSuccess: @Sendable (NetworkResponse) -> Void
        let onError: @Sendable (NetworkError) -> Void
        var timer: Task<Void, Never>?
    }

    private struct Flight {
        let key: CoalescingKey
        /// The first caller's timeout, which the shared dispatch is sent with.
        let timeout: TimeInterval?
        var members: [UInt64: Member] = [:]
        var handle: (any Cancellable)?
    }

    private struct Table {
        /// The flights in progress for each key: usually one, more when callers with different
        /// timeouts could not share.
        var joinable: [CoalescingKey: [UInt64]] = [:]
        var flights: [UInt64: Flight] = [:]
        var nextID: UInt64 = 0

        mutating func makeID() -> UInt64 {
            defer { nextID += 1 }
            return nextID
        }
    }

    private let table = Locked(Table())
    private let clock: ElapsedClock

    init(clock: ElapsedClock) {
        self.clock = clock
    }

    /// Adds a caller to the joinable flight for `key`, or starts a flight through `base`.
    func join(
        _ key: CoalescingKey, _ request: RequestData,
        onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void, base: any NetworkDispatcher
    ) -> any Cancellable {
        let member = Member(request: request, onSuccess: onSuccess, onError: onError)
        let (flightID, memberID, leads, ownDeadline) = table.withLock { table in
            let memberID = table.makeID()
            for flightID in table.joinable[key] ?? [] {
                guard let flight = table.flights[flightID],
                    let ownDeadline = Self.joins(request.timeout, sharing: flight.timeout)
                else { continue }
                table.flights[flightID]?.members[memberID] = member
                return (flightID, memberID, false, ownDeadline)
            }
            let flightID = table.makeID()
            var flight = Flight(key: key, timeout: request.timeout)
            flight.members[memberID] = member
            table.flights[flightID] = flight
            table.joinable[key, default: []].append(flightID)
            return (flightID, memberID, true, TimeInterval?.none)
        }
        if let ownDeadline { startTimer(after: ownDeadline, member: memberID, of: flightID, request) }
        if leads {
            let handle = base.dispatch(
                request: request,
                onSuccess: { [self] in finish(flightID, .success($0)) },
                onError: { [self] in finish(flightID, .failure($0)) })
            attach(handle, to: flightID)
        }
        return CancellableAction { [self] in
            leave(memberID, of: flightID, with: .cancelled(request))
        }
    }

    /// Whether a caller with `timeout` may join a flight sent with `shared`: `nil` when it may
    /// not, else the seconds of its own deadline timer (`nil` inside when it needs none).
    private static func joins(_ timeout: TimeInterval?, sharing shared: TimeInterval?) -> TimeInterval?? {
        switch (timeout, shared) {
        case (nil, nil): return .some(nil)
        case (let own?, let shared?) where own == shared: return .some(nil)
        case (let own?, let shared?) where own < shared: return .some(own)
        default: return nil
        }
    }

    private func startTimer(
        after seconds: TimeInterval, member: UInt64, of flightID: UInt64, _ request: RequestData
    ) {
        let deadline = clock.elapsed() + .saturating(seconds: max(seconds, 0))
        let clock = clock
        let timer = Task { [self] in
            guard (try? await clock.sleepUntil(deadline)) != nil else { return }
            leave(
                member, of: flightID,
                with: NetworkError(
                    code: .timedOut,
                    message: "No response within the request's timeout of \(seconds) s, while it "
                        + "shared a dispatch started by an identical request with a longer timeout.",
                    request: request))
        }
        let finished = table.withLock { table in
            guard table.flights[flightID]?.members[member] != nil else { return true }
            table.flights[flightID]?.members[member]?.timer = timer
            return false
        }
        if finished { timer.cancel() }
    }

    /// Keeps the shared dispatch's handle, or cancels it when every caller has already left.
    private func attach(_ handle: any Cancellable, to flightID: UInt64) {
        let abandoned = table.withLock { table in
            guard table.flights[flightID] != nil else { return true }
            table.flights[flightID]?.handle = handle
            return false
        }
        // Also reached when the dispatch finished before returning; cancelling then does nothing.
        if abandoned { handle.cancel() }
    }

    /// Ends one caller's share; the last caller to leave cancels the shared dispatch.
    private func leave(_ memberID: UInt64, of flightID: UInt64, with error: NetworkError) {
        let (member, abandoned) = table.withLock { table -> (Member?, (any Cancellable)?) in
            guard let member = table.flights[flightID]?.members.removeValue(forKey: memberID) else {
                return (nil, nil)
            }
            guard let flight = table.flights[flightID], flight.members.isEmpty else { return (member, nil) }
            Self.remove(flightID, from: &table)
            return (member, flight.handle)
        }
        guard let member else { return }
        member.timer?.cancel()
        member.onError(error)
        abandoned?.cancel()
    }

    /// Hands the shared outcome to every caller still waiting, each with its own request.
    private func finish(_ flightID: UInt64, _ outcome: Result<NetworkResponse, NetworkError>) {
        let members = table.withLock { table -> [Member] in
            guard let flight = table.flights[flightID] else { return [] }
            Self.remove(flightID, from: &table)
            return Array(flight.members.values)
        }
        for member in members {
            member.timer?.cancel()
            switch outcome {
            case .success(var response):
                response.request = member.request
                member.onSuccess(response)
            case .failure(var error):
                error.request = member.request
                member.onError(error)
            }
        }
    }

    private static func remove(_ flightID: UInt64, from table: inout Table) {
        guard let flight = table.flights.removeValue(forKey: flightID) else { return }
        table.joinable[flight.key]?.removeAll { $0 == flightID }
        if table.joinable[flight.key]?.isEmpty == true { table.joinable.removeValue(forKey: flight.key) }
    }
}
