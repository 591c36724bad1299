extension DI {
    /// How long a resolved value lives and who shares it.
    ///
    /// | scope | a resolve returns |
    /// |---|---|
    /// | ``unique`` (the default) | a new value every time |
    /// | ``singleton`` | the one value of this container, created on first use |
    /// | ``weak`` | the current value while anyone still holds it, else a new one |
    /// | ``viewModel`` | one value per view model built by `@HiltViewModel` (Hilt's `@ViewModelScoped`) |
    /// | ``named(_:)`` | one value until the named scope is reset, for example ``session`` on logout |
    ///
    /// Cached scopes keep one cell per binding and per container: the factory of a singleton runs
    /// once even when a thousand tasks ask for it at the same moment, and no lock shared by other
    /// bindings is held while it runs.
    public struct Scope: Hashable, Sendable, CustomStringConvertible {
        /// The lifetimes the container knows.
        enum Kind: Hashable, Sendable {
            case unique
            case singleton
            case weak
            case viewModel
            case named(ScopeName)
        }

        /// The lifetime this scope stands for.
        let kind: Kind

        /// A new value for every resolve; the default for `register`.
        public static let unique = Scope(kind: .unique)

        /// One value per container, created lazily on first resolve and then kept.
        public static let singleton = Scope(kind: .singleton)

        /// One value shared while someone holds a strong reference to it.
        ///
        /// Only class instances can be held weakly; a value type registered with this scope is
        /// created anew on every resolve, and `DI.verify()` reports it.
        public static let weak = Scope(kind: .weak)

        /// One value per view model, shared by everything built for that view model.
        ///
        /// Inside the graph of one `@HiltViewModel` (or `DI.makeViewModel`) every resolve of such a
        /// binding returns the same value; the next view model gets a new one. Resolved outside a
        /// view model, it behaves like ``unique``.
        public static let viewModel = Scope(kind: .viewModel)

        /// The ready-made ``ScopeName/session`` scope, cleared with `DI.reset(.session)`.
        public static let session = Scope(kind: .named(.session))

        /// A scope whose values live until `DI.reset(_:)` is called with `name`.
        ///
        /// - Parameter name: The scope's name, declared as a static member of ``DI/ScopeName``.
        /// - Returns: The scope.
        public static func named(_ name: ScopeName) -> Scope {
            Scope(kind: .named(name))
        }

        /// Whether values of this scope are kept by the container.
        var isCached: Bool {
            kind != .unique && kind != .viewModel
        }

        /// The scope as written in code, for error messages: `.singleton`, `.named("checkout")`.
        public var description: String {
            switch kind {
            case .unique: ".unique"
            case .singleton: ".singleton"
            case .weak: ".weak"
            case .viewModel: ".viewModel"
            case .named(let name) where name == .session: ".session"
            case .named(let name): ".named(\(name))"
            }
        }
    }

    /// The name of a resettable scope, such as a user session.
    ///
    /// Declare further names as static members and register with ``Scope/named(_:)``:
    ///
    /// ```swift
    /// extension DI.ScopeName {
    ///     static let checkout = DI.ScopeName("checkout")
    /// }
    /// di.register(Cart.self, scope: .named(.checkout)) { _ in Cart() }
    /// DI.current.reset(.checkout)
    /// ```
    public struct ScopeName: Hashable, Sendable, CustomStringConvertible {
        /// The text the scope name was declared with.
        public let rawValue: String

        /// Declares a scope name.
        ///
        /// - Parameter rawValue: The text of the name; it appears in error messages.
        public init(_ rawValue: String) {
            self.rawValue = rawValue
        }

        /// The scope of a signed-in user; reset it on logout.
        public static let session = ScopeName("session")

        /// The name in quotes, for error messages.
        public var description: String {
            "\"\(rawValue)\""
        }
    }
}
