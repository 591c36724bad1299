import Dispatch
import Testing

@testable import Errand

/// The bridge from a callback to async/await: the first result reaches the task, whichever of
/// the result and the wait comes first, and a later one is dropped.
@Suite struct CancellableCallbackTests {
    @Test func aResultFromAnotherThreadReachesTheTaskWhicheverComesFirst() async throws {
        // Given operations that answer on another thread, at once or a moment later, then again
        for index in 0..<2_000 {
            let value: Int = try await withCancellableCallback { relay in
                DispatchQueue.global().async {
                    relay.succeed(with: index)
                    relay.succeed(with: -1)
                }
                return FinishedCancellable()
            } onCancelledBeforeStart: {
                .cancelled(nil)
            }

            // Then each call returns its own first result
            #expect(value == index)
        }
    }

    @Test func aResultGivenDuringStartIsReturnedAndALaterOneDropped() async throws {
        // Given an operation that answers three times before its start returns (two values, then a
        // failure), then once more later
        let value: String = try await withCancellableCallback { relay in
            relay.succeed(with: "first")
            relay.succeed(with: "second")
            relay.fail(with: .cancelled(nil))
            DispatchQueue.global().async { relay.succeed(with: "late") }
            return FinishedCancellable()
        } onCancelledBeforeStart: {
            .cancelled(nil)
        }

        // Then the first is returned
        #expect(value == "first")
    }

    @Test func aFailureIsThrownAndALaterValueDropped() async {
        // Given an operation that fails on another thread, then succeeds
        await #expect(throws: NetworkError.self) {
            let _: Int = try await withCancellableCallback { relay in
                DispatchQueue.global().async {
                    relay.fail(with: .cancelled(nil))
                    relay.succeed(with: 1)
                }
                return FinishedCancellable()
            } onCancelledBeforeStart: {
                .cancelled(nil)
            }
        }
    }
}
