import ErrandSync
import Synchronization

extension DI {
    /// The container of the current task, if one was bound with `withOverrides` or `withCurrent`.
    @TaskLocal static var taskContainer: DI?

    /// The app's container and the number of times it was replaced, under the lock; replaced by
    /// `configure`.
    private static let sharedStorage = Locked((container: DI(name: "DI.shared"), generation: 0))

    /// The generation of `sharedStorage`, readable without its lock.
    private static let sharedGeneration = Atomic<Int>(0)

    /// The app's container, as last set by ``configure(name:modules:_:)``.
    ///
    /// Before any configuration it is an empty container named `DI.shared`.
    ///
    /// Every `@Inject` outside a test reads it, from any thread, so it avoids the lock: each
    /// thread keeps the container it read last together with its generation, and takes the lock
    /// only when `configure` has replaced it since. The cost is that a replaced container (and
    /// its singletons) may live on until every thread that used it reads `shared` again or ends.
    public static var shared: DI {
        let generation = sharedGeneration.load(ordering: .acquiring)
        let thread = ResolutionStack.current
        if thread.sharedGeneration == generation, let container = thread.sharedContainer {
            return container
        }
        let (container, current) = sharedStorage.withLock { ($0.container, $0.generation) }
        thread.sharedContainer = container
        thread.sharedGeneration = current
        return container
    }

    /// The container that `@Inject`, `@HiltViewModel`, `Provider` and `Lazy` use by default.
    ///
    /// Inside `DI.withOverrides(_:operation:)` it is that call's override container, and inside
    /// `DI.withCurrent(_:operation:)` that call's container, for the body and every child task it
    /// creates; everywhere else it is ``shared``.
    /// Detached tasks do not inherit task-local values, so they see ``shared``.
    public static var current: DI {
        taskContainer ?? shared
    }

    /// Configures the app's container: installs `modules`, runs `configure`, and makes the
    /// result ``shared``.
    ///
    /// Call it once, at launch. Calling it again replaces the shared container with a new one
    /// (with new singletons); containers already handed out keep working.
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
        sharedStorage.withLock { storage in
            storage = (container, storage.generation + 1)
            sharedGeneration.store(storage.generation, ordering: .releasing)
        }
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
        try $taskContainer.withValue(current.overriding(overrides), operation: operation)
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
        try await $taskContainer.withValue(
            current.overriding(overrides),
            operation: operation,
            isolation: isolation
        )
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
        try $taskContainer.withValue(container, operation: operation)
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
        try await $taskContainer.withValue(container, operation: operation, isolation: isolation)
    }
}
