import ErrandSync
import Synchronization

extension DI {
    /// The container of the current task, if one was bound with `withOverrides` or `withCurrent`.
    @TaskLocal static var taskContainer: DI?

    /// Whether any task has ever bound ``taskContainer``; until then ``current`` skips the lookup.
    ///
    /// Apps bind task containers only in tests, so in production `@Inject` never pays for the
    /// task-local lookup. Set before the first binding and never cleared: a task that can see a
    /// binding either made it or was created inside it, after the store, so it reads `true`.
    private static let taskContainerBound = Atomic<Bool>(false)

    /// The app's container, published for lock-free reads; replaced by `configure`.
    ///
    /// The pointer holds one retain of the container it points to. A reader loads it and then
    /// retains the container, with nothing in between to stop `configure` replacing it at that
    /// moment, so a replaced container must never be freed: `configure` moves that retain into
    /// `retiredContainers` instead of releasing it.
    private static let published = Atomic<Unmanaged<DI>>(Unmanaged.passRetained(DI(name: "DI.shared")))

    /// Every container `configure` has replaced, kept alive for the readers described above.
    private static let retiredContainers = Locked<[DI]>([])

    /// The app's container, as last set by ``configure(name:modules:_:)``.
    ///
    /// Before any configuration it is an empty container named `DI.shared`.
    ///
    /// Every `@Inject` outside a test reads it, from any thread, so it costs one atomic load and
    /// no lock. The price is that a container replaced by a later `configure` (and its
    /// singletons) stays alive until the process ends; `configure` is meant for launch.
    public static var shared: DI {
        published.load(ordering: .acquiring).takeUnretainedValue()
    }

    /// The container that `@Inject`, `@HiltViewModel`, `Provider` and `Lazy` use by default.
    ///
    /// Inside `DI.withOverrides(_:operation:)` it is that call's override container, and inside
    /// `DI.withCurrent(_:operation:)` that call's container, for the body and every child task it
    /// creates; everywhere else it is ``shared``.
    /// Detached tasks do not inherit task-local values, so they see ``shared``.
    public static var current: DI {
        if taskContainerBound.load(ordering: .relaxed), let container = taskContainer {
            return container
        }
        return shared
    }

    /// Resolves from ``current`` without retaining it, as `@Inject` does.
    ///
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - name: The qualifier it was registered with.
    /// - Returns: The value; the program stops if it cannot be resolved, as with `resolve`.
    @inlinable
    static func resolveFromCurrent<T>(_ type: T.Type, name: Name?) -> T {
        currentUnretained()._withUnsafeGuaranteedRef { $0.resolve(type, name: name) }
    }

    /// ``current``, without a retain: the published container is never freed (see
    /// `published`), and a task's container outlives the scope that bound it.
    @usableFromInline
    static func currentUnretained() -> Unmanaged<DI> {
        if taskContainerBound.load(ordering: .relaxed), let container = taskContainer {
            return Unmanaged.passUnretained(container)
        }
        return published.load(ordering: .acquiring)
    }

    /// Notes that a task container is about to be bound, before the first binding.
    private static func willBindTaskContainer() {
        if !taskContainerBound.load(ordering: .relaxed) {
            taskContainerBound.store(true, ordering: .relaxed)
        }
    }

    /// Configures the app's container: installs `modules`, runs `configure`, and makes the
    /// result ``shared``.
    ///
    /// Call it once, at launch. Calling it again replaces the shared container with a new one
    /// (with new singletons); containers already handed out keep working, and the replaced one
    /// stays alive until the process ends (see ``shared``).
    ///
    /// ```swift
    /// DI.configure(modules: [NetworkModule(), ProfileModule()]) { di in
    ///     di.baseURL = "https://api.example.com"
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The name shown in error messages.
    ///   - modules: Modules to install, in order, before `configure` runs.
    ///   - configure: Registers further bindings and writes settings.
    /// - Returns: The new shared container.
    @discardableResult
    public static func configure(
        name: String = "App",
        modules: [any DIModule] = [],
        _ configure: (Registrar) -> Void = { _ in }
    ) -> DI {
        let container = DI(name: name, modules: modules, configure)
        let replaced = published.exchange(Unmanaged.passRetained(container), ordering: .acquiringAndReleasing)
        retiredContainers.withLock { $0.append(replaced.takeRetainedValue()) }
        return container
    }

    /// Returns a fresh container built from this one's registrations plus `overrides`.
    ///
    /// The new container has the same modules and bindings (flattened with those of the parents,
    /// so overrides are seen by every factory), fresh caches (no singleton is shared with this
    /// container), and whatever `overrides` registers replaces the binding of the same type and
    /// qualifier. Settings start from this container's.
    ///
    /// - Parameter overrides: Registers replacement bindings and settings.
    /// - Returns: The override container, named after this one.
    public func overriding(_ overrides: (Registrar) -> Void) -> DI {
        let registrar = Registrar(base: flattenedRegistry, mode: .override, origin: "DI.withOverrides")
        overrides(registrar)
        let container = DI(name: "\(name) (overrides)", parent: nil, registry: registrar.registry)
        registrar.close(into: container)
        return container
    }

    /// Runs `operation` with ``current`` set to a fresh container with `overrides`.
    ///
    /// Made for tests: Swift Testing runs tests in parallel, and each call binds its own
    /// container through a task-local value, so no test sees another's overrides or singletons,
    /// and nothing needs resetting afterwards.
    ///
    /// ```swift
    /// @Test func showsTheProfile() throws {
    ///     try DI.withOverrides { di in
    ///         di.register(HTTPClient.self, scope: .singleton) { _ in FakeClient() }
    ///     } operation: {
    ///         let screen = ProfileScreen()
    ///         #expect(try screen.load().name == "Ada")
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - overrides: Registers replacement bindings and settings.
    ///   - operation: The code that sees the override container as ``current``.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public static func withOverrides<R>(
        _ overrides: (Registrar) -> Void,
        operation: () throws -> R
    ) rethrows -> R {
        let container = current.overriding(overrides)
        willBindTaskContainer()
        return try $taskContainer.withValue(container, operation: operation)
    }

    /// Runs async `operation` with ``current`` set to a fresh container with `overrides`.
    ///
    /// Child tasks of `operation` (`async let`, task groups, `Task {}`) see the same container.
    ///
    /// - Parameters:
    ///   - overrides: Registers replacement bindings and settings.
    ///   - isolation: The caller's isolation, kept while `operation` runs.
    ///   - operation: The code that sees the override container as ``current``.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public static func withOverrides<R>(
        _ overrides: (Registrar) -> Void,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> R
    ) async rethrows -> R {
        let container = current.overriding(overrides)
        willBindTaskContainer()
        return try await $taskContainer.withValue(container, operation: operation, isolation: isolation)
    }

    /// Checks the graph of ``current``; see the instance method `verify()`.
    ///
    /// - Throws: ``DIError`` with code ``DIError/Code/verificationFailed`` listing every problem.
    public static func verify() async throws(DIError) {
        try await current.verify()
    }
}

extension DI {
    /// Runs `operation` with ``current`` set to `container`.
    ///
    /// Made for tests that build a container of their own: inside `operation`, `@Inject`,
    /// `@HiltViewModel`, `Provider`, `Lazy` and ``current`` use `container`, without touching
    /// the app's ``shared`` container. The binding is task-local, like `withOverrides`, so tests
    /// running in parallel each see their own container, and nothing needs resetting afterwards.
    /// `DI.withOverrides` inside `operation` builds on `container`.
    ///
    /// ```swift
    /// @Test func showsTheProfile() throws {
    ///     let container = DI(name: "Test") { di in
    ///         di.register(HTTPClient.self, scope: .singleton) { _ in FakeClient() }
    ///         di.register(ProfileService.self) { r in ProfileService(client: try r.resolve()) }
    ///     }
    ///     try DI.withCurrent(container) {
    ///         #expect(ProfileScreen().profile.client is FakeClient)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - container: The container that `operation` sees as ``current``.
    ///   - operation: The code to run.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public static func withCurrent<R>(_ container: DI, operation: () throws -> R) rethrows -> R {
        willBindTaskContainer()
        return try $taskContainer.withValue(container, operation: operation)
    }

    /// Runs async `operation` with ``current`` set to `container`.
    ///
    /// Child tasks of `operation` (`async let`, task groups, `Task {}`) see the same container;
    /// detached tasks do not.
    ///
    /// - Parameters:
    ///   - container: The container that `operation` sees as ``current``.
    ///   - isolation: The caller's isolation, kept while `operation` runs.
    ///   - operation: The code to run.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public static func withCurrent<R>(
        _ container: DI,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> R
    ) async rethrows -> R {
        willBindTaskContainer()
        return try await $taskContainer.withValue(container, operation: operation, isolation: isolation)
    }
}
