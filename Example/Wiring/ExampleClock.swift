import ErrandSync
import Foundation

/// The wall clock the auth policy reads, which the tour can move forward.
///
/// "Let the access token expire" moves this clock past the token's lifetime instead of
/// waiting, so the tour runs the same every time, offline and live: the auth policy then sees
/// an expired token and refreshes it before the next request.
final class ExampleClock: Sendable {
    private let offset = Locked<TimeInterval>(0)

    /// The current time, plus however far the clock was moved.
    var now: Date { Date().addingTimeInterval(offset.withLock { $0 }) }

    /// Moves the clock forward by `seconds`.
    func advance(by seconds: TimeInterval) {
        offset.withLock { $0 += seconds }
    }
}
