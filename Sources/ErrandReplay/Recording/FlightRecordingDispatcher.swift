import Errand
import Foundation

/// A dispatcher that hands every exchange sent through the dispatcher it wraps to a
/// ``FlightRecorder``. Made with `NetworkDispatcher.flightRecording(into:)`.
///
/// Each exchange is recorded once, when it ends (response, failure or cancellation), on the
/// thread that ends it and just before its own callback, so a caller that has its answer finds
/// the exchange in the recorder. Recording adds no task and no hop. Outermost, it sees what the
/// app asked and what it finally got; inside a retry policy, each attempt.
public struct FlightRecordingDispatcher: WrappingDispatcher {
    /// The dispatcher that sends the requests.
    public let base: any NetworkDispatcher
    /// Where the exchanges are kept.
    public let recorder: FlightRecorder

    /// Creates a recording dispatcher.
    ///
    /// - Parameters:
    ///   - base: The dispatcher that sends the requests.
    ///   - recorder: Where the exchanges are kept.
    public init(base: any NetworkDispatcher, recorder: FlightRecorder) {
        self.base = base
        self.recorder = recorder
    }

    /// Sends the request through the base dispatcher and records the exchange when it ends.
    @discardableResult
    public func dispatch(
        request: RequestData,
        onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        let recorder = recorder
        let started = (date: recorder.now(), offset: recorder.elapsed())
        return base.dispatch(request: request, onSuccess: onSuccess, onError: onError) { outcome in
            recorder.record(
                request, outcome, startedDateTime: started.date, duration: recorder.elapsed() - started.offset
            )
        }
    }
}

extension NetworkDispatcher {
    /// This dispatcher, keeping its last exchanges, redacted, in `recorder`.
    ///
    /// - Parameter recorder: The recorder the app keeps, to write the exchanges out with
    ///   ``FlightRecorder/write(to:)`` when it needs them.
    /// - Returns: The recording dispatcher.
    public func flightRecording(into recorder: FlightRecorder) -> FlightRecordingDispatcher {
        FlightRecordingDispatcher(base: self, recorder: recorder)
    }
}
