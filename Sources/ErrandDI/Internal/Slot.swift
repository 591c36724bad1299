/// The non-generic face of a binding inside one container, for lists and messages.
protocol AnySlot: AnyObject, Sendable {
    /// What the binding is.
    var info: BindingInfo { get }

    /// The binding's cache in this container, for scoped bindings.
    var cache: (any SlotCache)? { get }
}

/// A binding that can be resolved from any isolation, inside one container.
///
/// The class is not generic, so finding and calling it never instantiates generic metadata:
/// a created singleton is read from `singleton` with one atomic load, and every other value comes
/// from the producer's generic requirement, returned directly as the requested type.
final class Slot: AnySlot {
    /// Resolves the slot once for `verify()` and reports the problem.
    typealias Check = @Sendable (Slot, DI) -> DIError?

    /// What the binding is.
    let info: BindingInfo

    /// The binding's cache, for scoped bindings.
    let cache: (any SlotCache)?

    /// The cache of a singleton or registered instance, read before anything else.
    let singleton: SingletonCell?

    /// Makes the binding's values.
    private let producer: any Producer

    /// Resolves the binding once, for `verify()`.
    private let checker: Check

    /// Creates a slot.
    ///
    /// - Parameters:
    ///   - info: What the binding is.
    ///   - cache: Its cache, if scoped.
    ///   - singleton: Its singleton cache, if it is a singleton or an instance.
    ///   - producer: Makes its values.
    ///   - checker: Resolves once for `verify()`.
    init(
        info: BindingInfo,
        cache: (any SlotCache)?,
        singleton: SingletonCell? = nil,
        producer: any Producer,
        checker: @escaping Check
    ) {
        self.info = info
        self.cache = cache
        self.singleton = singleton
        self.producer = producer
        self.checker = checker
    }

    /// Returns the binding's value as `T`, the type it was registered as.
    ///
    /// - Parameters:
    ///   - type: The registered type; the caller found the slot by its key.
    ///   - container: The container that owns the slot.
    ///   - viewModel: The view-model scope of the resolution, if any.
    /// - Returns: The value.
    @inline(__always)
    func value<T>(_ type: T.Type, in container: DI, viewModel: ViewModelScope?) throws(DIError) -> T {
        if let singleton, let value = singleton.read(T.self) {
            return value
        }
        return try producer.produce(T.self, in: container, viewModel: viewModel)
    }

    /// Checks the binding for `verify()`.
    ///
    /// - Parameter container: The container that owns the slot.
    /// - Returns: The problem, or `nil`.
    func check(in container: DI) -> DIError? {
        checker(self, container)
    }
}

/// A binding registered with `registerMainActor`, inside one container.
final class MainActorSlot: AnySlot {
    /// Writes a value into the storage at the pointer, on the main actor.
    typealias Produce =
        @MainActor @Sendable (DI, ViewModelScope?, UnsafeMutableRawPointer) throws(DIError) -> Void

    /// Resolves the slot once for `verify()`, on the main actor.
    typealias Check = @MainActor @Sendable (MainActorSlot, DI) -> DIError?

    /// What the binding is.
    let info: BindingInfo

    /// The binding's cache, for scoped bindings.
    let cache: (any SlotCache)?

    /// Produces a value in the owning container.
    private let produce: Produce

    /// Resolves the binding once, for `verify()`.
    private let checker: Check

    /// Creates a slot.
    ///
    /// - Parameters:
    ///   - info: What the binding is.
    ///   - cache: Its cache, if scoped.
    ///   - checker: Resolves once for `verify()`.
    ///   - produce: Writes a value into the storage at the pointer.
    init(info: BindingInfo, cache: (any SlotCache)?, checker: @escaping Check, produce: @escaping Produce) {
        self.info = info
        self.cache = cache
        self.checker = checker
        self.produce = produce
    }

    /// Returns the binding's value as `T`, the type it was registered as.
    ///
    /// - Parameters:
    ///   - type: The registered type.
    ///   - container: The container that owns the slot.
    ///   - viewModel: The view-model scope of the resolution, if any.
    /// - Returns: The value.
    @MainActor
    func value<T>(_ type: T.Type, in container: DI, viewModel: ViewModelScope?) throws(DIError) -> T {
        let address = UnsafeMutablePointer<T>.allocate(capacity: 1)
        defer { address.deallocate() }
        try produce(container, viewModel, UnsafeMutableRawPointer(address))
        return address.move()
    }

    /// Checks the binding for `verify()`.
    ///
    /// - Parameter container: The container that owns the slot.
    /// - Returns: The problem, or `nil`.
    @MainActor
    func check(in container: DI) -> DIError? {
        checker(self, container)
    }
}
