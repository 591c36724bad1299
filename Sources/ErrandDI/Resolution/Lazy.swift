import Synchronization

/// Resolves a binding on first use, once, and keeps the value, like Dagger's `Lazy<T>`.
///
/// Creating a `Lazy` resolves nothing, so it breaks a cycle: `A` can hold a `Lazy<B>` while `B`
/// needs `A`. The first ``get()`` resolves; later calls return the same value. It is safe to
/// call from many threads at once: the binding is resolved once, and the others wait for it.
/// A failed resolve is not kept, so a later call tries again.
///
/// ```swift
/// final class Settings {
///     private let analytics: Lazy<Analytics>
///     init(analytics: Lazy<Analytics>) { self.analytics = analytics }
///     func track() throws { try analytics.get().log("settings") }
/// }
/// di.register(Settings.self) { r in Settings(analytics: r.lazy()) }
/// ```
public final class Lazy<T: Sendable>: Sendable {
    /// The container to resolve from.
    private let container: DI

    /// The qualifier to resolve.
    private let name: DI.Name?

    /// The view-model scope the lazy value was made in, if any.
    private let viewModel: ViewModelScope?

    /// The resolved value; the `Mutex` is held during the one resolve.
    private let state = Mutex<T?>(nil)

    /// Creates a lazy value of `type` from `container`.
    ///
    /// - Parameters:
    ///   - type: The type to resolve later.
    ///   - name: The qualifier it was registered with.
    ///   - container: The container to resolve from; `nil` means `DI.current` at this moment.
    public convenience init(_ type: T.Type = T.self, name: DI.Name? = nil, container: DI? = nil) {
        self.init(type, name: name, container: container ?? DI.current, viewModel: nil)
    }

    /// Creates a lazy value inside a resolution.
    ///
    /// - Parameters:
    ///   - type: The type to resolve later.
    ///   - name: The qualifier it was registered with.
    ///   - container: The container to resolve from.
    ///   - viewModel: The view-model scope of the resolution, if any.
    init(_ type: T.Type, name: DI.Name?, container: DI, viewModel: ViewModelScope?) {
        self.container = container
        self.name = name
        self.viewModel = viewModel
    }

    /// Whether the value has been resolved; `false` while it is being resolved.
    public var isResolved: Bool {
        state.withLockIfAvailable { $0 != nil } ?? false
    }

    /// Returns the value, resolving it on the first call.
    ///
    /// - Returns: The value; the same one on every call once resolved.
    /// - Throws: ``DIError`` when the binding cannot be resolved; also when this is called while
    ///   the binding is being created on the same thread (a cycle through the lazy value).
    public func get() throws(DIError) -> T {
        if let cached = state.withLockIfAvailable({ $0 }), let value = cached {
            return value
        }
        try checkNotResolvingHere()
        return try state.withLock { (value: inout T?) throws(DIError) -> T in
            if let value {
                return value
            }
            let resolved = try container.value(T.self, name: name, viewModel: viewModel)
            value = resolved
            return resolved
        }
    }

    /// Reports a cycle instead of waiting for our own lock.
    ///
    /// If the binding is being created on this thread, this thread may hold the lock already
    /// (the binding's factory asked for the lazy value that is resolving it), so the first read
    /// above only tries the lock, and this check runs before waiting for it.
    private func checkNotResolvingHere() throws(DIError) {
        let key = BindingKey(T.self, name: name)
        var next: DI? = container
        while let current = next {
            if let slot = current.index[key] {
                try current.checkNotInProgress(slot.info)
                return
            }
            next = current.parent
        }
    }
}
