/// A group of registrations that belong together, like a Hilt `@Module`.
///
/// A module registers into the registrar it is given; install it with
/// `DI.configure(modules: [NetworkModule(), ProfileModule()])` or ``DI/Registrar/install(_:)``.
/// Bindings remember the module that registered them, and error messages name it.
///
/// ```swift
/// struct NetworkModule: DIModule {
///     func register(in di: DI.Registrar) {
///         di.register(HTTPClient.self, scope: .singleton) { r in URLClient(baseURL: r.baseURL) }
///         di.contribute(RequestInterceptor.self) { _ in LoggingInterceptor() }
///     }
/// }
/// ```
///
/// Modules are used only while a container is configured, so they need not be `Sendable`.
public protocol DIModule {
    /// Registers the module's bindings.
    ///
    /// - Parameter di: The registrar of the container being configured.
    func register(in di: DI.Registrar)
}
