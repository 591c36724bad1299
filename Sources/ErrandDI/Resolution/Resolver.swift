extension DI {
    /// The `r` a factory receives: resolves the factory's own dependencies.
    ///
    /// ```swift
    /// di.register(ProfileService.self) { r in
    ///     ProfileService(client: try r.resolve(), baseURL: r.baseURL)
    /// }
    /// ```
    ///
    /// Everything a factory resolves belongs to the same resolution: a dependency that needs the
    /// binding being created is reported as a cycle with its full path, for example
    /// `A → B → C → A`, while a dependency shared by two branches (a diamond) is not. A resolver
    /// resolves from the container that owns the binding, so a parent's binding never sees a
    /// child's. It is `Sendable` and may be kept, for example inside a closure, but prefer
    /// ``provider(_:name:)`` and ``lazy(_:name:)``, which say what they are for.
    @dynamicMemberLookup
    public struct Resolver: Sendable {
        /// The container that owns the binding being created.
        public let container: DI

        /// The view-model scope the value is built for, if any.
        let viewModel: ViewModelScope?

        /// Reads a setting by its property on ``Settings``: `r.baseURL`.
        ///
        /// - Parameter keyPath: The setting's property.
        /// - Returns: The setting's value in the owning container.
        public subscript<Value>(dynamicMember keyPath: KeyPath<Settings, Value>) -> Value {
            container.settings[keyPath: keyPath]
        }

        /// Resolves a dependency of the value being created.
        ///
        /// - Parameters:
        ///   - type: The type to resolve; it can be inferred from the context.
        ///   - name: The qualifier it was registered with.
        /// - Returns: The value.
        /// - Throws: ``DIError``; let it propagate, so the whole path reaches the caller.
        public func resolve<T>(_ type: T.Type = T.self, name: Name? = nil) throws(DIError) -> T {
            try container.value(type, name: name, viewModel: viewModel)
        }

        /// Resolves an optional dependency: `nil` if nothing is registered for it.
        ///
        /// - Parameters:
        ///   - type: The type to resolve.
        ///   - name: The qualifier it was registered with.
        /// - Returns: The value, or `nil`.
        /// - Throws: ``DIError`` when the registration exists but cannot be resolved.
        public func resolveOptional<T>(_ type: T.Type = T.self, name: Name? = nil) throws(DIError) -> T? {
            try container.optionalValue(type, name: name, viewModel: viewModel)
        }

        /// Resolves every contribution to the multibinding of `type`, in registration order.
        ///
        /// - Parameters:
        ///   - type: The element type.
        ///   - name: The qualifier of the multibinding.
        /// - Returns: The contributions; empty if there are none.
        /// - Throws: ``DIError`` when a contribution cannot be resolved.
        public func resolveAll<T>(_ type: T.Type = T.self, name: Name? = nil) throws(DIError) -> [T] {
            try container.allValues(type, name: name, viewModel: viewModel)
        }

        /// Resolves a main-actor binding (or any other) from a main-actor factory.
        ///
        /// - Parameters:
        ///   - type: The type to resolve.
        ///   - name: The qualifier it was registered with.
        /// - Returns: The value.
        /// - Throws: ``DIError``.
        @MainActor
        public func resolveOnMainActor<T>(_ type: T.Type = T.self, name: Name? = nil) throws(DIError) -> T {
            try container.mainActorValue(type, name: name, viewModel: viewModel)
        }

        /// A provider that resolves `type` anew each time it is called.
        ///
        /// Nothing is resolved now, so a provider breaks a cycle: `A` can hold a
        /// `Provider<B>` while `B` needs `A`, as long as `A`'s factory does not call it.
        ///
        /// - Parameters:
        ///   - type: The type to provide.
        ///   - name: The qualifier it was registered with.
        /// - Returns: The provider.
        public func provider<T>(_ type: T.Type = T.self, name: Name? = nil) -> Provider<T> {
            Provider(type, name: name, container: container, viewModel: viewModel)
        }

        /// A lazy value that resolves `type` on first use, once.
        ///
        /// Nothing is resolved now, so a lazy value breaks a cycle like ``provider(_:name:)``.
        ///
        /// - Parameters:
        ///   - type: The type to resolve later.
        ///   - name: The qualifier it was registered with.
        /// - Returns: The lazy value.
        public func lazy<T: Sendable>(_ type: T.Type = T.self, name: Name? = nil) -> Lazy<T> {
            Lazy(type, name: name, container: container, viewModel: viewModel)
        }
    }
}
