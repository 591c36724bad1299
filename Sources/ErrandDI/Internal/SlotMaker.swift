/// Builds the slot of each scope, once per container, from a registration.
///
/// The producers and closures built here are where the registered type is known; the slots
/// themselves are not generic. Main-actor slots use closures isolated to the main actor, which
/// write into storage the caller provides; their path is not performance-critical.
enum SlotMaker {
    /// A factory as registered.
    typealias Factory<Value> = @Sendable (DI.Resolver) throws -> Value

    /// A main-actor factory as registered.
    typealias MainActorFactory<Value> = @MainActor @Sendable (DI.Resolver) throws -> Value

    /// A slot that runs `factory` on every resolve.
    static func unique<Value>(_ info: BindingInfo, _ factory: @escaping Factory<Value>) -> Slot {
        Slot(info: info, cache: nil, producer: UniqueProducer(info, factory), checker: checker(Value.self))
    }

    /// A slot that returns a ready-made instance.
    static func instance<Value: Sendable>(_ info: BindingInfo, _ value: Value) -> Slot {
        let cell = SingletonCell(holding: ValueBox(value))
        return Slot(
            info: info,
            cache: cell,
            singleton: cell,
            producer: InstanceProducer(value),
            checker: checker(Value.self)
        )
    }

    /// A slot for any scope; only `Sendable` values may be cached and shared.
    static func scoped<Value: Sendable>(_ info: BindingInfo, _ factory: @escaping Factory<Value>) -> Slot {
        let cell: (any BoxCell)?
        let weakCell: WeakCell<Value>?
        switch info.scope.kind {
        case .unique:
            return unique(info, factory)
        case .singleton:
            let singleton = SingletonCell()
            return Slot(
                info: info,
                cache: singleton,
                singleton: singleton,
                producer: ScopedProducer(info, factory, cell: singleton, weakCell: nil),
                checker: checker(Value.self)
            )
        case .named:
            (cell, weakCell) = (OnceCell(), nil)
        case .weak:
            (cell, weakCell) = (nil, WeakCell<Value>())
        case .viewModel:
            (cell, weakCell) = (nil, nil)
        }
        return Slot(
            info: info,
            cache: cell ?? weakCell,
            producer: ScopedProducer(info, factory, cell: cell, weakCell: weakCell),
            checker: checker(Value.self)
        )
    }

    /// A main-actor slot that runs `factory` on every resolve.
    static func mainActorUnique<Value>(_ info: BindingInfo, _ factory: @escaping MainActorFactory<Value>)
        -> MainActorSlot
    {
        MainActorSlot(info: info, cache: nil, checker: mainActorChecker(Value.self)) {
            container, viewModel, out throws(DIError) in
            let value = try container.run(info, viewModel: viewModel) { resolver in try factory(resolver) }
            out.assumingMemoryBound(to: Value.self).initialize(to: value)
        }
    }

    /// A main-actor slot for any scope; values are created and handed out on the main actor only.
    static func mainActorScoped<Value: Sendable>(
        _ info: BindingInfo, _ factory: @escaping MainActorFactory<Value>
    ) -> MainActorSlot {
        let check = mainActorChecker(Value.self)
        let cache: (any SlotCache)?
        switch info.scope.kind {
        case .unique:
            return mainActorUnique(info, factory)
        case .singleton: cache = SingletonCell()
        case .named: cache = OnceCell()
        case .weak: cache = WeakCell<Value>()
        case .viewModel: cache = nil
        }
        return MainActorSlot(info: info, cache: cache, checker: check) {
            container, viewModel, out throws(DIError) in
            let make = { (scope: ViewModelScope?) throws(DIError) -> Value in
                try container.run(info, viewModel: scope) { resolver in try factory(resolver) }
            }
            let value: Value
            if let cell = cache as? any BoxCell {
                value = try cachedValue(in: cell, of: info, container: container) { () throws(DIError) in
                    try make(nil)
                }
            } else if let cell = cache as? WeakCell<Value> {
                try container.checkNotInProgress(info)
                value = try cell.getOrCreate(info, in: container) { () throws(DIError) in try make(nil) }
            } else if let viewModel {
                value = try cachedValue(in: viewModel.cell(for: info), of: info, container: container) {
                    () throws(DIError) in try make(viewModel)
                }
            } else {
                value = try make(nil)
            }
            out.assumingMemoryBound(to: Value.self).initialize(to: value)
        }
    }

    /// Reads a once-per-scope value, or creates it under the cell's own lock.
    ///
    /// The cycle check comes before the cell's gate, so a binding that needs itself is reported
    /// with this thread's path at once; the gate reports a cycle that runs through other threads.
    static func cachedValue<Value: Sendable>(
        in cell: some BoxCell,
        of info: BindingInfo,
        container: DI,
        make: () throws(DIError) -> Value
    ) throws(DIError) -> Value {
        if let box = cell.load() {
            return box.read(Value.self)
        }
        try container.checkNotInProgress(info)
        return try cell.getOrCreate(info, in: container) { () throws(DIError) in ValueBox(try make()) }
            .read(Value.self)
    }

    /// Resolves a slot of `Value` once and reports what went wrong, for `verify()`.
    private static func checker<Value>(_ type: Value.Type) -> Slot.Check {
        { slot, container in
            do throws(DIError) {
                let value = try slot.value(Value.self, in: container, viewModel: nil)
                return withExtendedLifetime(value) { weakScopeProblem(slot, in: container) }
            } catch {
                return error
            }
        }
    }

    /// Resolves a main-actor slot of `Value` once and reports what went wrong, for `verify()`.
    private static func mainActorChecker<Value>(_ type: Value.Type) -> MainActorSlot.Check {
        { slot, container in
            do throws(DIError) {
                let value = try slot.value(Value.self, in: container, viewModel: nil)
                return withExtendedLifetime(value) { weakScopeProblem(slot, in: container) }
            } catch {
                return error
            }
        }
    }

    /// Reports a weak binding whose value could not be held weakly (a value type).
    private static func weakScopeProblem(_ slot: any AnySlot, in container: DI) -> DIError? {
        guard slot.info.scope == .weak, let cache = slot.cache, cache.currentValue() == nil else {
            return nil
        }
        return DIError.invalidScope(slot.info, reason: .weakValueType, container: container)
    }
}
