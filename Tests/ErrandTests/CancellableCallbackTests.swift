import Dispatch
import Testing

@testable import Errand

/// The bridge from a callback to async/await: the first result reaches the task, whichever of
/// the result and the wait comes first, and a later one is dropped.
@Suite struct CancellableCallbackTests {
    @Test func aResultFromAnotherThreadReachesTheTaskWhicheverComesFirst() async throws {
        // Given operations that answer on another thread, at once or a moment later, then again
        for index in 0..<2_000 {
            let value = try await withCancellableCallback { complete in
                DispatchQueue.global().async {
                    complete(.success(index))
                    complete(.success(-1))
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
        let value = try await withCancellableCallback { complete in
            complete(.success("first"))
            complete(.success("second"))
            complete(.failure(.cancelled(nil)))
            DispatchQueue.global().async { complete(.success("late")) }
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
            let _: Int = try await withCancellableCallback { complete in
                DispatchQueue.global().async {
                    complete(.failure(.cancelled(nil)))
                    complete(.success(1))
                }
                return FinishedCancellable()
            } onCancelledBeforeStart: {
                .cancelled(nil)
            }
        }
    }
}
