/// One value of a type that only the generic code reading it knows, stored on the heap.
///
/// Caches hold values in boxes rather than in generic cells so that the resolution path never
/// instantiates generic metadata (`Cell<T>`, `Optional<T>`): reading a box needs only the
/// metadata of `T` itself, which the caller already has, and costs one copy.
///
/// `@unchecked Sendable`: the box is immutable. Its value is written once, in `init`, before the
/// box is published to other threads through the releasing atomic store of `SingletonCell` or
/// the lock of `OnceCell` (whose release/acquire ordering makes the write visible), and is only
/// read afterwards. The value's type is `Sendable`, as `init` requires.
final class ValueBox: @unchecked Sendable {
    /// The value's storage, initialised in `init` and deinitialised in `deinit`.
    private let pointer: UnsafeMutableRawPointer

    /// Copies the value out as an existential, for near misses and `verify()`.
    private let copyOut: @Sendable (UnsafeMutableRawPointer) -> any Sendable

    /// Deinitialises the value.
    private let destroy: @Sendable (UnsafeMutableRawPointer) -> Void

    /// Boxes `value`.
    ///
    /// - Parameter value: The value to keep.
    init<Value: Sendable>(_ value: Value) {
        let typed = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        typed.initialize(to: value)
        pointer = UnsafeMutableRawPointer(typed)
        copyOut = { $0.assumingMemoryBound(to: Value.self).pointee }
        destroy = { $0.assumingMemoryBound(to: Value.self).deinitialize(count: 1) }
    }

    /// Where the value is stored, for a caller that knows its type.
    var storage: UnsafeRawPointer { UnsafeRawPointer(pointer) }

    /// Returns a copy of the value.
    ///
    /// - Parameter type: The type the value was boxed as; the caller guarantees it, because
    ///   boxes are found by the key of that very type.
    /// - Returns: The value.
    func read<T>(_ type: T.Type) -> T {
        pointer.assumingMemoryBound(to: T.self).pointee
    }

    /// The value as an existential.
    var anyValue: any Sendable {
        copyOut(pointer)
    }

    /// Deinitialises and frees the value.
    deinit {
        destroy(pointer)
        pointer.deallocate()
    }
}
