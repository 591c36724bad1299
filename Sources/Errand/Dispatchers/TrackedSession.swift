import ErrandSync
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session of a dispatcher's delegate-driven tasks, made on first use.
///
/// For a dispatcher that owns its session, this is that session, and every request goes through
/// it. For a dispatcher given the caller's session, it is a second session, with a copy of that
/// session's configuration, for the requests that ask for progress; one that never sends such a
/// request never pays for it (on Linux, a curl multi handle and a queue).
final class TrackedSession: Sendable {
    private let state: Locked<(configuration: URLSessionConfiguration, session: URLSession?)>
    private let delegate: TransferDelegate

    init(configuration: URLSessionConfiguration, delegate: TransferDelegate) {
        // A copy, so later changes to the caller's configuration object do not leak in.
        let copy = (configuration.copy() as? URLSessionConfiguration) ?? configuration
        self.state = Locked((copy, nil))
        self.delegate = delegate
    }

    /// The session, made now if needed.
    var session: URLSession {
        state.withLock { state in
            if let session = state.session { return session }
            let session = URLSession(
                configuration: state.configuration, delegate: delegate, delegateQueue: Self.delegateQueue())
            state.session = session
            return session
        }
    }

    /// The queue the session's delegate runs on: on Linux none, the events run where the
    /// session raises them (see ``InlineDelegateQueue`` and ``TransferDelegate``); the system's
    /// own elsewhere.
    private static func delegateQueue() -> OperationQueue? {
        #if canImport(FoundationNetworking)
            InlineDelegateQueue()
        #else
            nil
        #endif
    }

    /// Lets running tasks finish, then releases the session, if it was ever made.
    func invalidate() {
        state.withLock { $0.session }?.finishTasksAndInvalidate()
    }
}
