/// A dependency container in the style of Hilt: registrations, scopes, modules and checks.
///
/// Configure the app's container once, at launch; factories receive a ``Resolver`` for their own
/// dependencies, and owners get theirs through `@Inject`:
///
/// ```swift
/// DI.configure(modules: [NetworkModule()]) { di in
///     di.baseURL = "https://api.example.com"
///     di.register(ProfileService.self) { r in ProfileService(client: try r.resolve()) }
/// }
/// final class ProfileScreen {
///     @Inject var profile: ProfileService
/// }
/// ```
///
/// A container is closed once built: its registrations never change, so resolving reads them
/// without a lock, and only the caches of scoped values synchronise, each on a lock of its own.
/// A container is `Sendable`; any task or thread may resolve from it. Tests swap bindings with
/// `DI.withOverrides(_:operation:)`, which gives each test a fresh container of its own.
@dynamicMemberLookup
public final class DI: Sendable {
    /// The container's name, shown in error messages.
    public let name: String

    /// The container asked for what this one does not register, like Hilt's parent component.
    public let parent: DI?

    /// The container's typed settings, such as ``Settings/baseURL``.
    public let settings: Settings

    /// The registrations the container was built from, kept for overrides and `verify()`.
    let registry: Registry

    /// The container's own bindings and caches.
    let slots: SlotTable

    /// The container's nonisolated bindings by key: the table every resolve reads first.
    let index: SlotIndex

    /// Registrations made into this container's registrar after it was built, reported by
    /// every resolve and by `verify()`.
    let lateRegistrations = LateRegistrations()

    /// Creates and configures a container.
    ///
    /// Most apps configure the shared container with ``configure(name:modules:_:)`` instead; a
    /// container of your own suits previews, tools and tests.
    ///
    /// - Parameters:
    ///   - name: The name shown in error messages.
    ///   - modules: Modules to install, in order, before `configure` runs.
    ///   - configure: Registers further bindings and writes settings.
    public convenience init(
        name: String = "DI",
        modules: [any DIModule] = [],
        _ configure: (Registrar) -> Void = { _ in }
    ) {
        let registrar = Registrar(base: Registry(), mode: .configure, origin: "DI.configure")
        for module in modules {
            registrar.install(module)
        }
        configure(registrar)
        self.init(name: name, parent: nil, registry: registrar.registry)
        registrar.close(into: self)
    }

    /// Creates a container from a closed registry, with fresh caches.
    ///
    /// - Parameters:
    ///   - name: The name shown in error messages.
    ///   - parent: The container to fall back to.
    ///   - registry: The registrations and settings.
    init(name: String, parent: DI?, registry: Registry) {
        self.name = name
        self.parent = parent
        self.settings = registry.settings
        self.registry = registry
        self.slots = SlotTable(registry)
        self.index = slots.nonisolated
    }

    /// Creates a child container that falls back to this one, like a Hilt subcomponent.
    ///
    /// The child resolves what it registers itself and asks this container for the rest; it
    /// starts with this container's settings. Its singletons are its own, and a binding found in
    /// the parent is created by the parent, from the parent's bindings.
    ///
    /// - Parameters:
    ///   - name: The child's name, shown in error messages.
    ///   - modules: Modules to install, in order, before `configure` runs.
    ///   - configure: Registers the child's bindings.
    /// - Returns: The child container.
    public func child(
        name: String,
        modules: [any DIModule] = [],
        _ configure: (Registrar) -> Void = { _ in }
    ) -> DI {
        var base = Registry()
        base.settings = settings
        let registrar = Registrar(base: base, mode: .configure, origin: "DI.configure")
        for module in modules {
            registrar.install(module)
        }
        configure(registrar)
        let child = DI(name: name, parent: self, registry: registrar.registry)
        registrar.close(into: child)
        return child
    }

    /// Forgets every value of the named scope in this container, such as the session on logout.
    ///
    /// The next resolve of each binding of that scope creates a new value. A value that is
    /// being created while the reset runs is finished first and then forgotten. Parent and child
    /// containers keep their own values; reset them where they are registered.
    ///
    /// - Parameter scope: The name of the scope to reset.
    public func reset(_ scope: ScopeName) {
        for slot in slots.named[scope] ?? [] {
            slot.cache?.reset()
        }
    }

    /// Reads a setting by its property on ``Settings``: `container.baseURL`.
    ///
    /// - Parameter keyPath: The setting's property.
    /// - Returns: The setting's value in this container.
    public subscript<Value>(dynamicMember keyPath: KeyPath<Settings, Value>) -> Value {
        settings[keyPath: keyPath]
    }

    /// The parents of this container, nearest first.
    var ancestors: [DI] {
        var result: [DI] = []
        var next = parent
        while let container = next {
            result.append(container)
            next = container.parent
        }
        return result
    }

    /// This container's registrations with its parents' underneath, as one registry.
    ///
    /// Used by overrides and `verify()`, which build a single fresh container in which every
    /// factory sees every binding, including the overrides.
    var flattenedRegistry: Registry {
        guard let parent else {
            return registry
        }
        return registry.layered(over: parent.flattenedRegistry)
    }

    /// Throws a cycle error if `binding` is being created on this thread.
    ///
    /// Cached scopes call this before entering their cell's creation gate, so a binding that
    /// needs itself is reported with this thread's path; the gate itself reports cycles that run
    /// through other threads.
    ///
    /// - Parameter binding: The binding about to be created.
    func checkNotInProgress(_ binding: BindingInfo) throws(DIError) {
        if ResolutionStack.current.contains(binding) {
            throw DIError.cycle(at: binding, in: self)
        }
    }

    /// Runs `factory` for `binding` with a resolver of this container, tracking the path.
    ///
    /// - Parameters:
    ///   - binding: The binding being created.
    ///   - viewModel: The view-model scope the value is built for, if any.
    ///   - factory: The registered factory.
    /// - Returns: The value the factory made.
    /// - Throws: ``DIError`` for a cycle or a failed dependency; a factory's own error is wrapped
    ///   as ``DIError/Code/factoryFailed``.
    func run<T>(
        _ binding: BindingInfo,
        viewModel: ViewModelScope?,
        _ factory: (Resolver) throws -> T
    ) throws(DIError) -> T {
        let stack = ResolutionStack.current
        if stack.contains(binding) {
            throw DIError.cycle(at: binding, in: self)
        }
        stack.push(binding)
        defer { stack.pop() }
        do {
            return try factory(Resolver(container: self, viewModel: viewModel))
        } catch let error as DIError {
            throw error
        } catch {
            throw DIError.factoryFailed(binding, underlying: error, in: self)
        }
    }
}
