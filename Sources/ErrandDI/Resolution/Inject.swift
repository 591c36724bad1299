/// A property resolved from the container when its owner is created.
///
/// ```swift
/// final class ProfileScreen {
///     @Inject var profile: ProfileService
///     @Inject(name: .uploads) var uploads: HTTPClient
/// }
/// ```
///
/// The value is resolved once, in the owner's initialiser, from `DI.current` (the override
/// container inside `DI.withOverrides`, the given container inside `DI.withCurrent`, else the
/// shared one), and then kept: the owner never sees a half-configured container later, and a
/// missing registration shows up when the owner is created, not at some later access. A failed resolve stops the program with the full
/// ``DIError`` description; to handle failures, resolve with `resolveThrowing` instead.
@propertyWrapper
public struct Inject<Value> {
    /// The resolved value.
    public let wrappedValue: Value

    /// Resolves the property's type from `container`, or from `DI.current`.
    ///
    /// - Parameters:
    ///   - name: The qualifier it was registered with.
    ///   - container: The container to resolve from; `nil` means `DI.current`.
    @inlinable
    public init(name: DI.Name? = nil, container: DI? = nil) {
        if let container {
            wrappedValue = container.resolve(Value.self, name: name)
        } else {
            wrappedValue = DI.resolveFromCurrent(Value.self, name: name)
        }
    }
}

extension Inject: Sendable where Value: Sendable {}
