import Errand
import Foundation

/// A dispatcher that lets identical reads in flight at the same time share one dispatch of the
/// dispatcher it wraps. Made with ``Errand/NetworkDispatcher/coalescingIdenticalRequests(alsoMatching:clock:)``.
///
/// Two requests are identical when both are `GET` or both `HEAD`, carry no body, go to the same
/// URL once built for the wire (escapes, `.` and `..` segments and query items as the transport
/// writes them), carry the same values for `Accept`, `Accept-Language` and the headers you
/// name, have the same `RequestIdentity`, and ask the same of an auth policy
/// (`RequestData.authentication`). Any other header does not count: the shared dispatch sends
/// the first caller's request. Unsafe methods are never shared.
///
/// A flight is never shared across credentials or sessions: the identity counts every
/// credential the request carries (`Authorization`, `Cookie`, `X-API-Key`, `Proxy-Authorization`,
/// a secret query item, URL user info), and, when an ``AuthenticatingDispatcher`` sits further
/// in, the session it will sign the request in, so a read made after a sign-in, a sign-out or an
/// account switch never joins one made before it, and a signed-in read never joins an anonymous
/// one. Put the coalescer on either side of the auth policy; a wrapping dispatcher of your own
/// between them should conform to `WrappingDispatcher` so that the coalescer can see the
/// auth policy through it.
///
/// - Each caller gets its own callback, exactly once, with the response (or the failure) of the
///   shared dispatch, carrying its own request. `execute` then decodes and hops to each
///   caller's own callback queue.
/// - Cancelling a caller ends only its share with `cancelled`; the shared dispatch is cancelled
///   when every caller has cancelled.
/// - A request arriving after the shared dispatch completed starts a new one: nothing is cached.
///
/// Deadlines: the shared dispatch is sent with the first caller's `RequestData.timeout`. A
/// caller whose timeout is shorter joins, with a timer of its own on `clock`: it ends with
/// `timedOut` on its own deadline and leaves the others waiting. A caller whose timeout is
/// longer (or that has none while the first caller has one, or the other way round) does not
/// join, since the first caller's deadline would cut it short; it starts a dispatch of its own,
/// which later callers join. With equal timeouts the shared deadline is the first caller's, so a
/// caller that arrived later may time out early by the time it arrived after the first.
///
/// Copies share their dispatches in flight.
public struct CoalescingDispatcher: WrappingDispatcher {
    /// The dispatcher that sends the shared requests.
    public let base: any NetworkDispatcher
    /// The headers whose values must be equal for two requests to share a dispatch.
    public let matchedHeaders: [String]
    private let flights: SharedFlights
    private let stamper: SessionStamper

    /// Creates a coalescing dispatcher.
    ///
    /// - Parameters:
    ///   - base: The dispatcher that sends the shared requests.
    ///   - headers: Headers that must also be equal, besides `Authorization`, `Accept`,
    ///     `Accept-Language` and `Cookie`; compared by name in any case.
    ///   - clock: The clock the deadlines of callers with a shorter timeout run on; inject a
    ///     manual clock in tests.
    public init(
        base: any NetworkDispatcher, alsoMatching headers: [String] = [],
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.base = base
        var names = CoalescingKey.standardHeaders
        for header in headers where !names.contains(where: { $0.caseInsensitiveEquals(header) }) {
            names.append(header)
        }
        self.matchedHeaders = names
        self.flights = SharedFlights(clock: ElapsedClock(clock))
        self.stamper = SessionStamper(below: base)
    }

    /// Sends the request, sharing a dispatch in flight for an identical read.
    @discardableResult
    public func dispatch(
        request: RequestData,
        onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        var request = stamper.stamped(request)
        guard let key = CoalescingKey(&request, headers: matchedHeaders) else {
            return base.dispatch(request: request, onSuccess: onSuccess, onError: onError)
        }
        return flights.join(key, request, onSuccess: onSuccess, onError: onError, base: base)
    }
}

extension NetworkDispatcher {
    /// This dispatcher, with identical `GET` and `HEAD` requests in flight at the same time
    /// sharing one dispatch.
    ///
    /// See ``CoalescingDispatcher`` for what counts as identical, cancellation and deadlines.
    ///
    /// - Parameters:
    ///   - headers: Headers that must also be equal, besides `Authorization`, `Accept`,
    ///     `Accept-Language` and `Cookie`, such as `X-Tenant`.
    ///   - clock: The clock the deadlines of callers with a shorter timeout run on; inject a
    ///     manual clock in tests.
    /// - Returns: The coalescing dispatcher.
    public func coalescingIdenticalRequests(
        alsoMatching headers: [String] = [], clock: any Clock<Duration> = ContinuousClock()
    ) -> CoalescingDispatcher {
        CoalescingDispatcher(base: self, alsoMatching: headers, clock: clock)
    }
}
