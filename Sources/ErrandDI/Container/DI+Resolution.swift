extension DI {
    /// Returns the value registered for `type` under `name`, and stops the program if it cannot.
    ///
    /// Use it where a failed resolve is a programming error, as in app code after
    /// `DI.configure`; the program stops with the full ``DIError`` description (the path, the
    /// container, the near misses). Use ``resolveThrowing(_:name:)`` to handle the failure.
    ///
    /// - Parameters:
    ///   - type: The type to resolve; it can be inferred from the context.
    ///   - name: The qualifier it was registered with.
    /// - Returns: The value, created or reused as the binding's scope says.
    @inlinable
    public func resolve<T>(_ type: T.Type = T.self, name: Name? = nil) -> T {
        // Inlined into the caller, where `T` is known: a created singleton is copied out of its
        // storage directly, with no generic call in between.
        if let storage = cachedSingletonStorage(of: ObjectIdentifier(T.self), nameID: name?.id ?? 0) {
            return storage.assumingMemoryBound(to: T.self).pointee
        }
        return resolveTrapping(type, name: name)
    }

    /// Resolves as ``resolve(_:name:)`` does, once the cached-singleton shortcut has missed
    /// (so the index is not searched for a created singleton a second time).
    @usableFromInline
    func resolveTrapping<T>(_ type: T.Type, name: Name?) -> T {
        do {
            try checkNoLateRegistration()
            return try producedValue(type, name: name, key: BindingKey(type, name: name), viewModel: nil)
        } catch {
            error.trap()
        }
    }

    /// The storage of the singleton registered for the type and qualifier in this container, if
    /// it was created and nothing was registered late; `nil` sends the caller the long way.
    ///
    /// The storage lives as long as the container: a singleton is never reset.
    @usableFromInline
    func cachedSingletonStorage(of type: ObjectIdentifier, nameID: Int) -> UnsafeRawPointer? {
        guard lateRegistrations.isEmpty,
            let singleton = index.entry(for: BindingKey(type: type, nameID: nameID))?.singleton,
            let box = singleton._withUnsafeGuaranteedRef({ $0.box })
        else { return nil }
        return box._withUnsafeGuaranteedRef { $0.storage }
    }

    /// Returns the value registered for `type` under `name`.
    ///
    /// - Parameters:
    ///   - type: The type to resolve; it can be inferred from the context.
    ///   - name: The qualifier it was registered with.
    /// - Returns: The value, created or reused as the binding's scope says.
    /// - Throws: ``DIError`` when nothing is registered, for a cycle, or when a factory fails.
    public func resolveThrowing<T>(_ type: T.Type = T.self, name: Name? = nil) throws(DIError) -> T {
        try value(type, name: name, viewModel: nil)
    }

    /// Returns the value registered for `type` under `name`, or `nil` if nothing is registered.
    ///
    /// A registration that exists but fails (a missing dependency, a cycle, a throwing factory)
    /// still throws: `nil` means only "not registered here or in a parent".
    ///
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - name: The qualifier it was registered with.
    /// - Returns: The value, or `nil`.
    /// - Throws: ``DIError`` when the registration exists but cannot be resolved.
    public func resolveOptional<T>(_ type: T.Type = T.self, name: Name? = nil) throws(DIError) -> T? {
        try optionalValue(type, name: name, viewModel: nil)
    }

    /// Returns every contribution to the multibinding of `type`, in registration order.
    ///
    /// Contributions of parent containers come first. No contribution gives an empty array.
    ///
    /// - Parameters:
    ///   - type: The element type of the multibinding.
    ///   - name: The qualifier of the multibinding.
    /// - Returns: The contributions.
    /// - Throws: ``DIError`` when a contribution cannot be resolved.
    public func resolveAll<T>(_ type: T.Type = T.self, name: Name? = nil) throws(DIError) -> [T] {
        try allValues(type, name: name, viewModel: nil)
    }

    /// Returns a main-actor binding (or any other binding) from main-actor code.
    ///
    /// Bindings registered with `registerMainActor` are found only here, in
    /// ``Resolver/resolveOnMainActor(_:name:)`` and through `@HiltViewModel`; all are
    /// `@MainActor`, so the compiler rejects calls from other isolations.
    ///
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - name: The qualifier it was registered with.
    /// - Returns: The value.
    /// - Throws: ``DIError`` when nothing is registered, for a cycle, or when a factory fails.
    @MainActor
    public func resolveOnMainActor<T>(_ type: T.Type = T.self, name: Name? = nil) throws(DIError) -> T {
        try mainActorValue(type, name: name, viewModel: nil)
    }

    /// Creates a new view model with a view-model scope of its own, as `@HiltViewModel` does.
    ///
    /// Bindings registered with scope `.viewModel` are shared inside this view model's graph
    /// and are new for the next view model. The view model itself must be registered with scope
    /// `.unique` (the default) or `.viewModel`, so that every owner gets its own.
    ///
    /// - Parameters:
    ///   - type: The view model type, registered with `registerMainActor` or `register`.
    ///   - name: The qualifier it was registered with.
    /// - Returns: A new view model.
    /// - Throws: ``DIError``; ``DIError/Code/invalidScope`` for a view model with a shared scope.
    @MainActor
    public func makeViewModel<ViewModel>(
        _ type: ViewModel.Type,
        name: Name? = nil
    ) throws(DIError) -> ViewModel {
        try checkNoLateRegistration()
        let key = BindingKey(type, name: name)
        var container = self
        while true {
            let slot: (any AnySlot)? = container.slots.mainActor[key] ?? container.index[key]
            if let slot {
                guard slot.info.scope == .unique || slot.info.scope == .viewModel else {
                    throw DIError.invalidScope(slot.info, reason: .sharedViewModel, container: container)
                }
                return try container.mainActorValue(type, name: name, viewModel: ViewModelScope())
            }
            guard let parent = container.parent else {
                throw DIError.missing(type, name: name, in: self)
            }
            container = parent
        }
    }

    /// Resolves a nonisolated binding: the path every resolve takes.
    ///
    /// Looks the key up in the container's immutable `SlotIndex`, then in its parents', and lets
    /// the slot produce the value. The lookup takes no lock, a created singleton is read with one
    /// atomic load (after one more for the late-registration check), and no allocation or string
    /// work happens unless a factory runs or the resolve fails.
    ///
    /// - Parameters:
    ///   - type: The requested type.
    ///   - name: The requested qualifier.
    ///   - viewModel: The view-model scope of the resolution, if any.
    /// - Returns: The value.
    @inline(__always)
    func value<T>(_ type: T.Type, name: Name?, viewModel: ViewModelScope?) throws(DIError) -> T {
        try checkNoLateRegistration()
        let key = BindingKey(type, name: name)
        // A created singleton, read without retaining its slot, cell or box (the index keeps the
        // first two, the cell the box) and without the metadata of `T?`.
        if let singleton = index.entry(for: key)?.singleton,
            let box = singleton._withUnsafeGuaranteedRef({ $0.box })
        {
            return box._withUnsafeGuaranteedRef { $0.read(T.self) }
        }
        return try producedValue(type, name: name, key: key, viewModel: viewModel)
    }

    /// Resolves a binding that is not a created singleton of this container: its slot makes
    /// the value, or a parent's does.
    ///
    /// - Parameters:
    ///   - type: The requested type.
    ///   - name: The requested qualifier.
    ///   - key: Their key.
    ///   - viewModel: The view-model scope of the resolution, if any.
    /// - Returns: The value.
    @inline(never)
    private func producedValue<T>(
        _ type: T.Type,
        name: Name?,
        key: BindingKey,
        viewModel: ViewModelScope?
    ) throws(DIError) -> T {
        guard let slot = index[key] else {
            return try inheritedValue(type, name: name, key: key, viewModel: viewModel)
        }
        return try slot.value(type, in: self, viewModel: viewModel)
    }

    /// Resolves a nonisolated binding that this container does not register, from its parents.
    ///
    /// - Parameters:
    ///   - type: The requested type.
    ///   - name: The requested qualifier.
    ///   - key: Their key.
    ///   - viewModel: The view-model scope of the resolution, if any.
    /// - Returns: The value.
    @inline(never)
    private func inheritedValue<T>(
        _ type: T.Type,
        name: Name?,
        key: BindingKey,
        viewModel: ViewModelScope?
    ) throws(DIError) -> T {
        var next = parent
        while let container = next {
            try container.checkNoLateRegistration()
            if let slot = container.index[key] {
                return try slot.value(type, in: container, viewModel: viewModel)
            }
            next = container.parent
        }
        throw notFound(type, name: name, key: key)
    }

    /// Resolves a nonisolated binding, or returns `nil` if nothing is registered.
    ///
    /// - Parameters:
    ///   - type: The requested type.
    ///   - name: The requested qualifier.
    ///   - viewModel: The view-model scope of the resolution, if any.
    /// - Returns: The value, or `nil`.
    func optionalValue<T>(_ type: T.Type, name: Name?, viewModel: ViewModelScope?) throws(DIError) -> T? {
        try checkNoLateRegistration()
        let key = BindingKey(type, name: name)
        var container: DI? = self
        while let current = container {
            if current.index[key] != nil || current.slots.mainActor[key] != nil {
                return try value(type, name: name, viewModel: viewModel)
            }
            container = current.parent
        }
        return nil
    }

    /// Resolves every contribution to a multibinding, parents' first.
    ///
    /// - Parameters:
    ///   - type: The element type.
    ///   - name: The qualifier of the multibinding.
    ///   - viewModel: The view-model scope of the resolution, if any.
    /// - Returns: The contributions in registration order.
    func allValues<T>(_ type: T.Type, name: Name?, viewModel: ViewModelScope?) throws(DIError) -> [T] {
        let key = BindingKey(type, name: name)
        var values: [T] = []
        for container in ([self] + ancestors).reversed() {
            try container.checkNoLateRegistration()
            for slot in container.slots.contributions[key] ?? [] {
                values.append(try slot.value(type, in: container, viewModel: viewModel))
            }
        }
        return values
    }

    /// Resolves a binding on the main actor: main-actor bindings first, then nonisolated ones.
    ///
    /// - Parameters:
    ///   - type: The requested type.
    ///   - name: The requested qualifier.
    ///   - viewModel: The view-model scope of the resolution, if any.
    /// - Returns: The value.
    @MainActor
    func mainActorValue<T>(_ type: T.Type, name: Name?, viewModel: ViewModelScope?) throws(DIError) -> T {
        let key = BindingKey(type, name: name)
        var container = self
        while true {
            try container.checkNoLateRegistration()
            if let slot = container.slots.mainActor[key] {
                return try slot.value(type, in: container, viewModel: viewModel)
            }
            if let slot = container.index[key] {
                return try slot.value(type, in: container, viewModel: viewModel)
            }
            guard let parent = container.parent else {
                throw DIError.missing(type, name: name, in: self)
            }
            container = parent
        }
    }

    /// The error for a nonisolated resolve that found no binding.
    ///
    /// - Parameters:
    ///   - type: The requested type.
    ///   - name: The requested qualifier.
    ///   - key: Their key.
    /// - Returns: ``DIError/Code/mainActorOnly`` if a main-actor binding exists, else a missing
    ///   registration with its near misses.
    private func notFound<T>(_ type: T.Type, name: Name?, key: BindingKey) -> DIError {
        for container in [self] + ancestors {
            if let slot = container.slots.mainActor[key] {
                return DIError.mainActorOnly(slot.info, in: self)
            }
        }
        return DIError.missing(type, name: name, in: self)
    }
}
