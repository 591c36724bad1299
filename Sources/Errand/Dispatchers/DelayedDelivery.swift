import ErrandSync

/// A delivery that waits on a clock first and can be cancelled while it waits.
final class DelayedDelivery: Cancellable {
    private let pending: Locked<(deliver: @Sendable () -> Void, onCancel: @Sendable () -> Void)?>
    private let waiter = Locked<Task<Void, Never>?>(nil)

    private init(deliver: @escaping @Sendable () -> Void, onCancel: @escaping @Sendable () -> Void) {
        pending = Locked((deliver, onCancel))
    }

    /// Waits `delay` on `clock`, then delivers, unless cancelled first.
    static func start(
        after delay: Duration, on clock: any Clock<Duration>,
        deliver: @escaping @Sendable () -> Void, onCancel: @escaping @Sendable () -> Void
    ) -> DelayedDelivery {
        let delivery = DelayedDelivery(deliver: deliver, onCancel: onCancel)
        let task = Task {
            try? await clock.sleep(for: delay.clampedToLongest)
            delivery.take()?.deliver()
        }
        delivery.waiter.withLock { $0 = task }
        return delivery
    }

    /// Stops waiting and reports the cancellation now.
    func cancel() {
        guard let pending = take() else { return }
        waiter.withLock { $0 }?.cancel()
        pending.onCancel()
    }

    private func take() -> (deliver: @Sendable () -> Void, onCancel: @Sendable () -> Void)? {
        pending.withLock { pending in
            defer { pending = nil }
            return pending
        }
    }
}
