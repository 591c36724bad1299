extension DI {
    /// The `di` of `DI.configure { di in … }`: records registrations and settings.
    ///
    /// A registrar serves only while a configuration closure or a module runs. When it returns,
    /// the container is built from what was recorded and is closed: nothing can be registered
    /// into it later, which is why resolving needs no lock on the registrations. A registration
    /// into a registrar kept past that point is not applied; the container records it, and from
    /// then on every resolve from that container throws (or, for `resolve` and `@Inject`, stops
    /// with) ``DIError/Code/registrationAfterConfigure``, naming the registration, and so does
    /// `verify()`.
    ///
    /// ```swift
    /// DI.configure { di in
    ///     di.baseURL = "https://api.example.com"
    ///     di.registerSingleton(TokenStore.self, instance: store)
    ///     di.register(HTTPClient.self, scope: .singleton) { r in URLClient(baseURL: r.baseURL) }
    ///     di.register(ProfileService.self) { r in ProfileService(client: try r.resolve()) }
    /// }
    /// ```
    ///
    /// A registrar is not `Sendable`: use it only inside the closure that received it.
    @dynamicMemberLookup
    public final class Registrar {
        /// Whether registering a key twice is a mistake or the point.
        enum Mode {
            /// A configuration: a second registration of a key is reported by `verify()`.
            case configure
            /// Overrides: a registration replaces the base one silently.
            case override
        }

        /// What was recorded so far.
        private(set) var registry: Registry

        /// How repeated keys are treated.
        private let mode: Mode

        /// Who is registering now: `DI.configure`, `DI.withOverrides`, or a module's type name.
        private var origin: String

        /// The first registration of each key in this configuration, to report duplicates.
        private var firstRegistrations: [BindingKey: BindingInfo] = [:]

        /// The first main-actor registration of each key in this configuration.
        private var firstMainActorRegistrations: [BindingKey: BindingInfo] = [:]

        /// The container built from this registrar, once its configuration has returned.
        private var builtContainer: DI?

        /// Creates a registrar that adds to `base`.
        ///
        /// - Parameters:
        ///   - base: The registrations and settings to start from.
        ///   - mode: How repeated keys are treated.
        ///   - origin: Who registers, for error messages.
        init(base: Registry, mode: Mode, origin: String) {
            self.registry = base
            self.mode = mode
            self.origin = origin
        }

        /// The container's typed settings, such as ``Settings/baseURL``.
        public var settings: Settings {
            get { registry.settings }
            set { registry.settings = newValue }
        }

        /// Reads or writes a setting by its property on ``Settings``: `di.baseURL = "…"`.
        ///
        /// - Parameter keyPath: The setting's property.
        /// - Returns: The current value of the setting.
        public subscript<Value>(dynamicMember keyPath: WritableKeyPath<Settings, Value>) -> Value {
            get { registry.settings[keyPath: keyPath] }
            set { registry.settings[keyPath: keyPath] = newValue }
        }

        /// Registers everything `module` registers; bindings name the module in error messages.
        ///
        /// - Parameter module: A module, like Hilt's `@Module`.
        public func install(_ module: any DIModule) {
            let previous = origin
            origin = String(describing: type(of: module))
            defer { origin = previous }
            module.register(in: self)
        }

        /// Registers a factory that makes a new `T` on every resolve (the unique scope).
        ///
        /// `T` need not be `Sendable`, because each value goes to one caller.
        ///
        /// - Parameters:
        ///   - type: The type to register; a protocol binds the protocol to what the factory makes.
        ///   - name: A qualifier, declared as a static member of ``Name``.
        ///   - factory: Makes the value; it receives a ``Resolver`` for its own dependencies.
        public func register<T>(
            _ type: T.Type = T.self,
            name: Name? = nil,
            factory: @escaping @Sendable (Resolver) throws -> T
        ) {
            let info = BindingInfo(type, name: name, scope: .unique, kind: .plain, origin: origin)
            record(info, .nonisolated({ SlotMaker.unique(info, factory) }))
        }

        /// Registers a factory whose values live as long as `scope` says.
        ///
        /// Values of cached scopes are shared between callers and threads, so `T` must be
        /// `Sendable`; the compiler checks it.
        ///
        /// - Parameters:
        ///   - type: The type to register.
        ///   - name: A qualifier, declared as a static member of ``Name``.
        ///   - scope: How long values live: `.unique`, `.singleton`, `.weak`, `.viewModel`, or a
        ///     named scope such as `.session`.
        ///   - factory: Makes the value; it receives a ``Resolver`` for its own dependencies.
        public func register<T: Sendable>(
            _ type: T.Type = T.self,
            name: Name? = nil,
            scope: Scope,
            factory: @escaping @Sendable (Resolver) throws -> T
        ) {
            let info = BindingInfo(type, name: name, scope: scope, kind: .plain, origin: origin)
            record(info, .nonisolated({ SlotMaker.scoped(info, factory) }))
        }

        /// Registers a ready-made instance, returned by every resolve.
        ///
        /// - Parameters:
        ///   - type: The type to register it as.
        ///   - name: A qualifier, declared as a static member of ``Name``.
        ///   - instance: The instance.
        public func registerSingleton<T: Sendable>(_ type: T.Type = T.self, name: Name? = nil, instance: T) {
            let info = BindingInfo(type, name: name, scope: .singleton, kind: .plain, origin: origin)
            record(info, .nonisolated({ SlotMaker.instance(info, instance) }))
        }

        /// Binds a protocol to a registered implementation, so both resolve to the same value.
        ///
        /// The binding has no scope of its own: it resolves `implementation` and hands out that
        /// value, so a singleton implementation is one instance under both types. Swift cannot
        /// state "`Implementation` conforms to `Bound`" for a generic protocol, so conformance is
        /// checked when the binding is resolved (and by `verify()`), and a mismatch is reported as
        /// ``DIError/Code/typeMismatch``.
        ///
        /// - Parameters:
        ///   - type: The protocol (or superclass) to bind.
        ///   - name: The qualifier of the bound type.
        ///   - implementation: The registered implementation type.
        ///   - implementationName: The qualifier the implementation is registered with.
        public func bind<Bound, Implementation>(
            _ type: Bound.Type,
            name: Name? = nil,
            to implementation: Implementation.Type,
            implementationName: Name? = nil
        ) {
            let boundName = String(describing: Bound.self)
            let implementationTypeName = String(describing: Implementation.self)
            register(type, name: name) { resolver in
                let value = try resolver.resolve(Implementation.self, name: implementationName)
                guard let bound = value as? Bound else {
                    throw DIError.typeMismatch(
                        boundName, name: name, implementation: implementationTypeName, in: resolver.container
                    )
                }
                return bound
            }
        }

        /// Adds a value to the multibinding of `T`, like Hilt's `@IntoSet`.
        ///
        /// ``Resolver/resolveAll(_:name:)`` returns every contribution in registration order, a
        /// parent container's contributions first; for example the app's request interceptors.
        ///
        /// - Parameters:
        ///   - type: The element type of the multibinding.
        ///   - name: A qualifier of the multibinding.
        ///   - factory: Makes this contribution on every `resolveAll`.
        public func contribute<T>(
            _ type: T.Type = T.self,
            name: Name? = nil,
            factory: @escaping @Sendable (Resolver) throws -> T
        ) {
            let info = BindingInfo(type, name: name, scope: .unique, kind: .contribution, origin: origin)
            record(info, .nonisolated({ SlotMaker.unique(info, factory) }))
        }

        /// Adds a value with a scope to the multibinding of `T`.
        ///
        /// - Parameters:
        ///   - type: The element type of the multibinding.
        ///   - name: A qualifier of the multibinding.
        ///   - scope: How long this contribution's value lives.
        ///   - factory: Makes this contribution.
        public func contribute<T: Sendable>(
            _ type: T.Type = T.self,
            name: Name? = nil,
            scope: Scope,
            factory: @escaping @Sendable (Resolver) throws -> T
        ) {
            let info = BindingInfo(type, name: name, scope: scope, kind: .contribution, origin: origin)
            record(info, .nonisolated({ SlotMaker.scoped(info, factory) }))
        }

        /// Registers a type that lives on the main actor, such as a view model or a coordinator.
        ///
        /// The factory runs on the main actor, so it may call `@MainActor` initialisers, and the
        /// binding can only be resolved from main-actor code: through
        /// ``DI/resolveOnMainActor(_:name:)``, ``DI/Resolver/resolveOnMainActor(_:name:)`` or
        /// `@HiltViewModel`, all of which are `@MainActor`, so the compiler rejects a call from any
        /// other isolation. A nonisolated `resolve` of the same type does not find the binding and
        /// reports ``DIError/Code/mainActorOnly``.
        ///
        /// ```swift
        /// di.registerMainActor(ProfileViewModel.self) { r in
        ///     ProfileViewModel(service: try r.resolve())
        /// }
        /// ```
        ///
        /// - Parameters:
        ///   - type: The type to register.
        ///   - name: A qualifier, declared as a static member of ``DI/Name``.
        ///   - factory: Makes a new value on every resolve, on the main actor.
        public func registerMainActor<T>(
            _ type: T.Type = T.self,
            name: DI.Name? = nil,
            factory: @escaping @MainActor @Sendable (DI.Resolver) throws -> T
        ) {
            let info = BindingInfo(type, name: name, scope: .unique, kind: .mainActor, origin: origin)
            record(info, .mainActor({ SlotMaker.mainActorUnique(info, factory) }))
        }

        /// Registers a main-actor type whose values live as long as `scope` says.
        ///
        /// - Parameters:
        ///   - type: The type to register.
        ///   - name: A qualifier, declared as a static member of ``DI/Name``.
        ///   - scope: How long values live.
        ///   - factory: Makes the value, on the main actor.
        public func registerMainActor<T: Sendable>(
            _ type: T.Type = T.self,
            name: DI.Name? = nil,
            scope: DI.Scope,
            factory: @escaping @MainActor @Sendable (DI.Resolver) throws -> T
        ) {
            let info = BindingInfo(type, name: name, scope: scope, kind: .mainActor, origin: origin)
            record(info, .mainActor({ SlotMaker.mainActorScoped(info, factory) }))
        }

        /// Records `info` and reports a repeated key in a configuration.
        ///
        /// - Parameters:
        ///   - info: The new binding.
        ///   - maker: How to build its slot.
        func record(_ info: BindingInfo, _ maker: Registration.Maker) {
            if let builtContainer {
                builtContainer.lateRegistrations.record(info)
                return
            }
            if mode == .configure {
                switch info.kind {
                case .plain:
                    if let first = firstRegistrations.updateValue(info, forKey: info.key) {
                        registry.duplicates.append(Duplicate(first: first, second: info))
                    }
                case .mainActor:
                    if let first = firstMainActorRegistrations.updateValue(info, forKey: info.key) {
                        registry.duplicates.append(Duplicate(first: first, second: info))
                    }
                case .contribution:
                    break
                }
            }
            registry.registrations.append(Registration(info: info, maker: maker))
        }

        /// Marks the configuration as over: later registrations are recorded in `container` as
        /// mistakes instead of being kept.
        ///
        /// - Parameter container: The container built from this registrar.
        func close(into container: DI) {
            builtContainer = container
        }
    }
}

@available(*, unavailable, message: "A registrar is used only inside the closure that received it.")
extension DI.Registrar: Sendable {}
