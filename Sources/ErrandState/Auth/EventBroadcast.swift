import ErrandSync

/// Sends each event to every listener, each with a stream of its own.
///
/// An `AsyncStream` has one consumer; several tasks iterating the same stream would split its
/// events between them. So each listener gets a stream of its own, with an unbounded buffer, and
/// a stream that ends (its task cancelled, its loop left) removes itself. Thread-safe: the
/// continuations sit behind a `Locked`, because a stream ends on whatever thread its consumer
/// is on.
final class EventBroadcast<Event: Sendable>: Sendable {
    private struct State {
        var listeners: [Int: AsyncStream<Event>.Continuation] = [:]
        var nextID = 0
    }

    private let state = Locked(State())

    /// A new stream that receives every event sent from now on.
    func stream() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .unbounded)
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.listeners[state.nextID] = continuation
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    /// Sends `event` to every stream.
    func send(_ event: Event) {
        let listeners = state.withLock { Array($0.listeners.values) }
        for listener in listeners { listener.yield(event) }
    }

    deinit {
        let listeners = state.withLock { Array($0.listeners.values) }
        for listener in listeners { listener.finish() }
    }
}
