import ErrandSync
import Synchronization

/// The non-generic face of a value cache, for near misses, `verify()` and scope resets.
protocol SlotCache: AnyObject, Sendable {
    /// The value held right now, if any; never waits for a value being created.
    func currentValue() -> (any Sendable)?

    /// Forgets the held value, so the next resolve creates a new one.
    func reset()
}

/// A cell that keeps one boxed value once it is created: the cached scopes other than weak.
protocol BoxCell: SlotCache {
    /// The value, if it was created.
    func load() -> ValueBox?

    /// Returns the value, creating it with `make` if the cell is empty.
    func getOrCreate(
        _ binding: BindingInfo,
        in container: DI,
        _ make: () throws(DIError) -> ValueBox
    ) throws(DIError) -> ValueBox
}

/// The cell of a singleton (or of a registered instance): created once, then read without a lock.
///
/// Creation is serialised by a `CreationGate` private to this cell, held while the factory runs,
/// so that concurrent first resolves run the factory once while other bindings resolve
/// undisturbed, and a cycle between threads is reported instead of deadlocking. The created value
/// is then published with a releasing atomic store, and every later resolve reads it with one
/// acquiring atomic load. A singleton is never reset, so the published box lives as long as the
/// cell, which keeps a strong reference to it (released in `deinit`); that is what makes the
/// lock-free read safe.
final class SingletonCell: BoxCell {
    /// The value once created, retained by the cell; written once, under `creation`.
    private let published = Atomic<Unmanaged<ValueBox>?>(nil)

    /// Serialises creation; guards nothing else.
    private let creation = CreationGate()

    /// Creates an empty cell.
    init() {}

    /// Creates a cell holding a ready-made value.
    ///
    /// - Parameter box: The registered instance.
    init(holding box: ValueBox) {
        published.store(Unmanaged.passRetained(box), ordering: .releasing)
    }

    /// Releases the published value.
    deinit {
        published.load(ordering: .acquiring)?.release()
    }

    /// The value, if it was created.
    ///
    /// - Returns: The box of the value, or `nil`.
    func load() -> ValueBox? {
        published.load(ordering: .acquiring)?.takeUnretainedValue()
    }

    /// The box of the value if it was created, unretained: the cell keeps it until it is
    /// deinitialised, and a singleton is never reset.
    @inline(__always)
    var box: Unmanaged<ValueBox>? {
        published.load(ordering: .acquiring)
    }

    /// Copies the value out as `T` if it was created: one atomic load, no reference counting.
    ///
    /// - Parameter type: The type the value was boxed as.
    /// - Returns: The value, or `nil` if it was not created yet.
    @inline(__always)
    func read<T>(_ type: T.Type) -> T? {
        guard let box = published.load(ordering: .acquiring) else {
            return nil
        }
        // The cell keeps the box alive until it is deinitialised, so no retain is needed.
        return box._withUnsafeGuaranteedRef { $0.read(T.self) }
    }

    /// Returns the value, creating it with `make` if nobody has yet.
    ///
    /// - Parameters:
    ///   - binding: The binding, for a cycle error.
    ///   - container: The container resolving it, for a cycle error.
    ///   - make: Runs the binding's factory; called at most once per container.
    /// - Returns: The box of the singleton.
    /// - Throws: What `make` throws, or a cycle; the cell stays empty, so a later resolve tries
    ///   again.
    func getOrCreate(
        _ binding: BindingInfo,
        in container: DI,
        _ make: () throws(DIError) -> ValueBox
    ) throws(DIError) -> ValueBox {
        try creation.run(creating: binding, in: container) { () throws(DIError) -> ValueBox in
            if let box = load() {
                return box
            }
            let box = try make()
            published.store(Unmanaged.passRetained(box), ordering: .releasing)
            return box
        }
    }

    /// The value, if it was created.
    ///
    /// - Returns: The singleton, or `nil`.
    func currentValue() -> (any Sendable)? {
        load()?.anyValue
    }

    /// Does nothing: a singleton lives as long as its container.
    func reset() {}
}

/// A resettable cell holding one value, created by the first resolve that finds it empty.
///
/// Used for named scopes and for view-model-scoped values. Like `SingletonCell`, it holds a
/// `CreationGate` of its own while the factory runs; unlike it, it can be emptied, so the value
/// sits behind a lock, which is held only to read or write it, never while a factory runs.
/// A reset that arrives while the value is being created does not wait: the value being created
/// is handed to its caller and not kept.
final class OnceCell: BoxCell {
    /// The value and the number of resets so far; the lock is never held while a factory runs.
    private let state = Locked<(box: ValueBox?, resets: Int)>((nil, 0))

    /// Serialises creation; guards nothing else.
    private let creation = CreationGate()

    /// Creates an empty cell.
    init() {}

    /// The value, if it was created.
    ///
    /// - Returns: The box of the value, or `nil`.
    func load() -> ValueBox? {
        state.withLock { $0.box }
    }

    /// Returns the value, creating it with `make` if the cell is empty.
    ///
    /// - Parameters:
    ///   - binding: The binding, for a cycle error.
    ///   - container: The container resolving it, for a cycle error.
    ///   - make: Runs the binding's factory; called at most once while the cell is empty.
    /// - Returns: The box of the value.
    /// - Throws: What `make` throws, or a cycle; the cell stays empty, so a later resolve tries
    ///   again.
    func getOrCreate(
        _ binding: BindingInfo,
        in container: DI,
        _ make: () throws(DIError) -> ValueBox
    ) throws(DIError) -> ValueBox {
        try creation.run(creating: binding, in: container) { () throws(DIError) -> ValueBox in
            let (current, resets) = state.withLock { ($0.box, $0.resets) }
            if let current {
                return current
            }
            let created = try make()
            state.withLock { state in
                // A reset during creation forgets the value: it is not kept.
                if state.resets == resets {
                    state.box = created
                }
            }
            return created
        }
    }

    /// The value, if it was created.
    ///
    /// - Returns: The cached value, or `nil`.
    func currentValue() -> (any Sendable)? {
        load()?.anyValue
    }

    /// Empties the cell.
    func reset() {
        state.withLock { state in
            state.box = nil
            state.resets += 1
        }
    }
}

/// A cell that shares its value while someone else holds a strong reference to it.
///
/// Only class instances can be held weakly; any other value is boxed on the way in, the box dies
/// at once, and the binding behaves like the unique scope (which `verify()` reports).
final class WeakCell<Value: Sendable>: SlotCache {
    /// The weak reference.
    private struct Reference {
        /// The shared instance, while it lives.
        weak var object: AnyObject?
        /// The number of resets so far.
        var resets = 0
    }

    /// The current reference; the lock is never held while a factory runs.
    private let state = Locked(Reference())

    /// Serialises creation; guards nothing else.
    private let creation = CreationGate()

    /// Creates an empty cell.
    init() {}

    /// Returns the living value, or creates, remembers weakly and returns a new one.
    ///
    /// - Parameters:
    ///   - binding: The binding, for a cycle error.
    ///   - container: The container resolving it, for a cycle error.
    ///   - make: Runs the binding's factory.
    /// - Returns: The shared value.
    /// - Throws: What `make` throws, or a cycle.
    func getOrCreate(
        _ binding: BindingInfo,
        in container: DI,
        _ make: () throws(DIError) -> Value
    ) throws(DIError) -> Value {
        if let living = currentValue() as? Value {
            return living
        }
        return try creation.run(creating: binding, in: container) { () throws(DIError) -> Value in
            let (living, resets) = state.withLock { ($0.object as? Value, $0.resets) }
            if let living {
                return living
            }
            let created = try make()
            state.withLock { reference in
                if reference.resets == resets {
                    reference.object = created as AnyObject
                }
            }
            return created
        }
    }

    /// The living value, if any.
    ///
    /// - Returns: The shared value, or `nil` when nobody holds it.
    func currentValue() -> (any Sendable)? {
        state.withLock { $0.object as? Value }
    }

    /// Drops the weak reference.
    func reset() {
        state.withLock { reference in
            reference.object = nil
            reference.resets += 1
        }
    }
}

/// The values of view-model-scoped bindings for one view model.
///
/// `@HiltViewModel` creates one per owner and carries it through the resolvers of that view
/// model's graph; each binding gets its own `OnceCell`, so nested view-model-scoped bindings never
/// wait on each other.
final class ViewModelScope: Sendable {
    /// One cell per binding; the lock guards only the dictionary, never a factory run.
    private let cells = Locked<[ObjectIdentifier: OnceCell]>([:])

    /// Creates an empty scope for a new view model.
    init() {}

    /// Returns the cell of `binding` in this view model, creating it on first use.
    ///
    /// - Parameter binding: A view-model-scoped binding.
    /// - Returns: The binding's cell.
    func cell(for binding: BindingInfo) -> OnceCell {
        cells.withLock { cells in
            let id = ObjectIdentifier(binding)
            if let cell = cells[id] {
                return cell
            }
            let cell = OnceCell()
            cells[id] = cell
            return cell
        }
    }
}
