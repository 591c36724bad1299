/// Makes the values of a nonisolated binding.
///
/// The requirement is generic, so a slot can ask for its value as `T` and get it returned
/// directly, through a witness call, without temporary storage and without instantiating any
/// generic metadata but `T`'s own.
protocol Producer: AnyObject, Sendable {
    /// Returns a value of the binding as `T`.
    ///
    /// - Parameters:
    ///   - type: The registered type; callers find the slot by the key of `T`, so `T` is the
    ///     producer's `Value`.
    ///   - container: The container that owns the binding.
    ///   - viewModel: The view-model scope of the resolution, if any.
    /// - Returns: The value.
    func produce<T>(_ type: T.Type, in container: DI, viewModel: ViewModelScope?) throws(DIError) -> T
}

/// Hands a `Value` out as `T`, which is the same type.
///
/// Producers are reached only through the key `ObjectIdentifier(T.self)` of the type they were
/// registered as, so `T` and `Value` are one type and the cast reinterprets nothing.
///
/// - Parameters:
///   - value: The produced value.
///   - type: The requested type, equal to `Value`.
/// - Returns: `value`.
@inline(__always)
private func handOut<Value, T>(_ value: Value, as type: T.Type) -> T {
    unsafeBitCast(value, to: T.self)
}

/// Runs the factory on every resolve: the unique scope, for any type.
final class UniqueProducer<Value>: Producer {
    /// What the binding is.
    private let info: BindingInfo

    /// The registered factory.
    private let factory: SlotMaker.Factory<Value>

    /// Creates the producer.
    ///
    /// - Parameters:
    ///   - info: What the binding is.
    ///   - factory: The registered factory.
    init(_ info: BindingInfo, _ factory: @escaping SlotMaker.Factory<Value>) {
        self.info = info
        self.factory = factory
    }

    /// Runs the factory.
    func produce<T>(_ type: T.Type, in container: DI, viewModel: ViewModelScope?) throws(DIError) -> T {
        handOut(try container.run(info, viewModel: viewModel, factory), as: T.self)
    }
}

/// Returns a registered instance.
final class InstanceProducer<Value: Sendable>: Producer {
    /// The registered instance.
    private let value: Value

    /// Creates the producer.
    ///
    /// - Parameter value: The registered instance.
    init(_ value: Value) {
        self.value = value
    }

    /// Returns the instance.
    func produce<T>(_ type: T.Type, in container: DI, viewModel: ViewModelScope?) throws(DIError) -> T {
        handOut(value, as: T.self)
    }
}

/// Makes values that a scope caches: singleton, named, weak and view-model scopes.
final class ScopedProducer<Value: Sendable>: Producer {
    /// What the binding is.
    private let info: BindingInfo

    /// The registered factory.
    private let factory: SlotMaker.Factory<Value>

    /// The cell of singleton and named scopes.
    private let cell: (any BoxCell)?

    /// The cell of the weak scope.
    private let weakCell: WeakCell<Value>?

    /// Creates the producer.
    ///
    /// - Parameters:
    ///   - info: What the binding is.
    ///   - factory: The registered factory.
    ///   - cell: The cell of singleton and named scopes.
    ///   - weakCell: The cell of the weak scope.
    init(
        _ info: BindingInfo,
        _ factory: @escaping SlotMaker.Factory<Value>,
        cell: (any BoxCell)?,
        weakCell: WeakCell<Value>?
    ) {
        self.info = info
        self.factory = factory
        self.cell = cell
        self.weakCell = weakCell
    }

    /// Reads the value from its cache, or makes it there.
    func produce<T>(_ type: T.Type, in container: DI, viewModel: ViewModelScope?) throws(DIError) -> T {
        let value: Value
        if let cell {
            value = try SlotMaker.cachedValue(in: cell, of: info, container: container) {
                () throws(DIError) in try container.run(info, viewModel: nil, factory)
            }
        } else if let weakCell {
            try container.checkNotInProgress(info)
            value = try weakCell.getOrCreate(info, in: container) { () throws(DIError) in
                try container.run(info, viewModel: nil, factory)
            }
        } else if let viewModel {
            value = try SlotMaker.cachedValue(in: viewModel.cell(for: info), of: info, container: container) {
                () throws(DIError) in try container.run(info, viewModel: viewModel, factory)
            }
        } else {
            value = try container.run(info, viewModel: nil, factory)
        }
        return handOut(value, as: T.self)
    }
}
