/// Resolves a binding anew each time it is asked, like Hilt's `Provider<T>`.
///
/// A provider defers a dependency: it resolves nothing when it is created, so it can break a
/// cycle, and each call honours the binding's scope (a unique binding gives a new value per call,
/// a singleton the same one).
///
/// ```swift
/// final class Uploader {
///     let makeRequest: Provider<UploadRequest>
///     init(makeRequest: Provider<UploadRequest>) { self.makeRequest = makeRequest }
///     func upload() throws { let request = try makeRequest(); … }
/// }
/// di.register(Uploader.self) { r in Uploader(makeRequest: r.provider()) }
/// ```
///
/// A provider is `Sendable` whatever `T` is: it holds the container, not a value.
public struct Provider<T>: Sendable {
    /// The container to resolve from.
    private let container: DI

    /// The qualifier to resolve.
    private let name: DI.Name?

    /// The view-model scope the provider was made in, if any.
    private let viewModel: ViewModelScope?

    /// Creates a provider of `type` from `container`.
    ///
    /// - Parameters:
    ///   - type: The type to provide.
    ///   - name: The qualifier it was registered with.
    ///   - container: The container to resolve from; `nil` means `DI.current` at this moment.
    public init(_ type: T.Type = T.self, name: DI.Name? = nil, container: DI? = nil) {
        self.init(type, name: name, container: container ?? DI.current, viewModel: nil)
    }

    /// Creates a provider inside a resolution.
    ///
    /// - Parameters:
    ///   - type: The type to provide.
    ///   - name: The qualifier it was registered with.
    ///   - container: The container to resolve from.
    ///   - viewModel: The view-model scope of the resolution, if any.
    init(_ type: T.Type, name: DI.Name?, container: DI, viewModel: ViewModelScope?) {
        self.container = container
        self.name = name
        self.viewModel = viewModel
    }

    /// Resolves the binding now.
    ///
    /// - Returns: A value, created or reused as the binding's scope says.
    /// - Throws: ``DIError`` when the binding cannot be resolved.
    public func get() throws(DIError) -> T {
        try container.value(T.self, name: name, viewModel: viewModel)
    }

    /// Resolves the binding now: `try provider()`.
    ///
    /// - Returns: A value, created or reused as the binding's scope says.
    /// - Throws: ``DIError`` when the binding cannot be resolved.
    public func callAsFunction() throws(DIError) -> T {
        try get()
    }
}
