import ErrandSync

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

    /// The resolved value; the lock is held only to read or write it.
    private let state = Locked<T?>(nil)

    /// Serialises the one resolve, and reports a cycle between threads instead of deadlocking.
    private let resolving = CreationGate()

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
        state.withLock { $0 != nil }
    }

    /// Returns the value, resolving it on the first call.
    ///
    /// - Returns: The value; the same one on every call once resolved.
    /// - Throws: ``DIError`` when the binding cannot be resolved; also when this is called while
    ///   the binding is being created on the same thread (a cycle through the lazy value).
    public func get() throws(DIError) -> T {
        if let value = state.withLock({ $0 }) {
            return value
        }
        let binding = try checkNotResolvingHere()
        return try resolving.run(creating: binding, in: container) { () throws(DIError) -> T in
            if let value = state.withLock({ $0 }) {
                return value
            }
            let resolved = try container.value(T.self, name: name, viewModel: viewModel)
            state.withLock { $0 = resolved }
            return resolved
        }
    }

    /// Reports a cycle with this thread's path before waiting for the gate.
    ///
    /// If the binding is being created on this thread, this thread may hold the gate already
    /// (the binding's factory asked for the lazy value that is resolving it).
    ///
    /// - Returns: The binding the lazy value resolves, if it is registered, for a cycle's path.
    private func checkNotResolvingHere() throws(DIError) -> BindingInfo? {
        let key = BindingKey(T.self, name: name)
        var next: DI? = container
        while let current = next {
            if let slot = current.index[key] {
                try current.checkNotInProgress(slot.info)
                return slot.info
            }
            next = current.parent
        }
        return nil
    }
}
