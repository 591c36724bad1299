import ErrandSync

/// A request in flight that can be cancelled.
///
/// Cancelling ends the request with a `NetworkError` of code `cancelled`, promptly; cancelling a
/// request that has already finished does nothing.
public protocol Cancellable: Sendable {
    /// Cancels the request.
    func cancel()
}

/// A cancellable that runs a closure once, on the first ``cancel()``.
public final class CancellableAction: Cancellable {
    private let action: Locked<(@Sendable () -> Void)?>

    /// Creates a cancellable that runs `action` on the first call to ``cancel()``.
    public init(_ action: @escaping @Sendable () -> Void) {
        self.action = Locked(action)
    }

    /// A cancellable whose cancel does nothing, for work that is already done.
    public static var none: CancellableAction { CancellableAction {} }

    /// Runs the action, the first time only.
    public func cancel() {
        let pending = action.withLock { action in
            defer { action = nil }
            return action
        }
        pending?()
    }
}

/// The handle of a request that ended before its dispatcher returned: cancelling it does nothing.
///
/// A struct with nothing in it, so handing one back costs no allocation, unlike
/// ``CancellableAction/none``; dispatchers that answer at once return it on every request.
package struct FinishedCancellable: Cancellable {
    /// A handle with nothing left to cancel.
    package init() {}

    /// Does nothing: the request has ended.
    package func cancel() {}
}
