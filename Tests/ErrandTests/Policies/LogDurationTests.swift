import ErrandTestSupport
import Foundation
import Testing

@testable import Errand
@testable import ErrandPolicies

/// The duration on a response line, for any time an injected clock reports.
@Suite struct LogDurationTests {
    @Test(arguments: [
        (Duration.zero, "0.0 ms"),
        (.microseconds(12_300), "12.3 ms"),
        (.microseconds(12_349), "12.3 ms"),
        (.seconds(30), "30000.0 ms"),
        (.microseconds(-500), "-0.5 ms"),
        (.milliseconds(-12_345), "-12345.0 ms"),
    ])
    func aDurationIsWrittenInMillisecondsToATenth(duration: Duration, shown: String) {
        #expect(LogFormatter.milliseconds(duration) == shown)
    }

    @Test(arguments: [
        Duration.seconds(Int64.max), .seconds(Int64.min), .seconds(Int64.max / 10_000 + 1),
        Duration(secondsComponent: Int64.max, attosecondsComponent: 999_999_999_999_999_999),
    ])
    func aDurationTooLongForAnIntIsWrittenWithoutTrapping(duration: Duration) {
        let shown = LogFormatter.milliseconds(duration)
        #expect(shown.hasSuffix(" ms"))
        #expect(!shown.contains { $0.isNewline })
    }

    @Test func aClockThatJumpsAgesAheadGivesALineNotATrap() async throws {
        // Given a clock that jumps about 292 billion years while the request is out
        let clock = ManualClock()
        let sink = CapturingSink()
        let base = JumpingDispatcher(clock: clock, jump: .seconds(Int64.max / 2))
        let dispatcher = base.logging(to: sink, clock: clock)

        // When a request is answered
        _ = try await dispatcher.dispatch(.get("/x"))

        // Then its line is written with the duration as a number
        #expect(sink.texts.last?.hasPrefix("[errand #1] ← 200 GET /x 4.611686018427388e+21 ms") == true)
    }
}

/// A dispatcher whose answer takes `jump` on `clock`.
private struct JumpingDispatcher: NetworkDispatcher {
    let clock: ManualClock
    let jump: Duration

    func dispatch(
        request: RequestData, onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        clock.advance(by: jump)
        onSuccess(NetworkResponse(statusCode: 200))
        return CancellableAction.none
    }
}
