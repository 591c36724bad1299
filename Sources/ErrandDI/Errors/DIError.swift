/// The one error type of ErrandDI: a resolution or a configuration that went wrong.
///
/// Every error carries what a person needs to act on it: the type and qualifier concerned, the
/// resolution path that led there, the container, and for a missing registration the near misses
/// (the same type under another name, `Optional<T>` against `T`, an implementation registered
/// where its protocol was asked for, contributions to a multibinding of the type).
/// ``description`` renders all of it as a message written for the person reading the log.
/// Messages are built only when an error is created, never on the resolution path.
///
/// ```swift
/// do {
///     let client = try DI.current.resolveThrowing(HTTPClient.self, name: .primary)
/// } catch {
///     // error.code == .missingRegistration, error.nearMisses lists what was registered instead
/// }
/// ```
public struct DIError: Error, Sendable, CustomStringConvertible {
    /// What kind of problem this is.
    public enum Code: Sendable, Hashable {
        /// Nothing is registered for the type and qualifier asked for.
        case missingRegistration
        /// A binding was needed again while it was being created.
        case dependencyCycle
        /// A factory threw an error of its own; see ``DIError/underlying``.
        case factoryFailed
        /// A `registerMainActor` binding was asked for by code that is not on the main actor.
        case mainActorOnly
        /// A `bind(_:to:)` implementation does not conform to the type it is bound to.
        case typeMismatch
        /// A binding's scope cannot do what is asked of it (see the message).
        case invalidScope
        /// The same type and qualifier were registered twice in one configuration.
        case duplicateRegistration
        /// `verify()` found problems; see ``DIError/problems``.
        case verificationFailed
        /// A registration was made into a registrar kept after its configuration returned, so it
        /// was not applied; the container reports it on every resolve and in `verify()`.
        case registrationAfterConfigure
    }

    /// Why a scope cannot serve, for ``Code/invalidScope``.
    enum ScopeReason: Sendable {
        /// A weak binding whose values are not class instances.
        case weakValueType
        /// A view model registered with a shared scope, asked for by `@HiltViewModel`.
        case sharedViewModel
    }

    /// Facts that only some codes have.
    enum Detail: Sendable {
        /// Nothing beyond the common fields.
        case none
        /// The scope and the reason it cannot serve.
        case scope(DI.Scope, ScopeReason)
        /// The implementation type a protocol was bound to.
        case implementation(String)
        /// Who registered the binding (a module, `DI.configure`, `DI.withOverrides`).
        case origin(String)
        /// Who registered a binding first, and who registered it again.
        case duplicate(first: String, second: String)
    }

    /// What kind of problem this is.
    public let code: Code

    /// The type concerned, as written in code (`HTTPClient`, `Optional<Token>`).
    public let typeName: String

    /// The qualifier of the binding concerned, if any.
    public let name: DI.Name?

    /// The resolution path, outermost first, ending with the binding concerned.
    ///
    /// For a cycle it is the cycle itself, closed with its first element: `[A, B, C, A]`.
    public let path: [String]

    /// The name of the container that was asked.
    public let container: String

    /// Registrations that look like what was asked for, for ``Code/missingRegistration``.
    public let nearMisses: [NearMiss]

    /// The error a factory threw, for ``Code/factoryFailed``.
    public let underlying: (any Error)?

    /// Every problem found, for ``Code/verificationFailed``, in registration order.
    public let problems: [DIError]

    /// The names of the parent containers that were searched too, nearest first.
    let parents: [String]

    /// Facts that only some codes have.
    let detail: Detail

    /// Creates an error; see the static constructors in `DIError+Making.swift`.
    init(
        code: Code,
        typeName: String,
        name: DI.Name?,
        path: [String],
        container: DI,
        nearMisses: [NearMiss] = [],
        underlying: (any Error)? = nil,
        problems: [DIError] = [],
        detail: Detail = .none
    ) {
        self.code = code
        self.typeName = typeName
        self.name = name
        self.path = path
        self.container = container.name
        self.parents = container.ancestors.map(\.name)
        self.nearMisses = nearMisses
        self.underlying = underlying
        self.problems = problems
        self.detail = detail
    }

    /// Stops the program with this error's full description.
    ///
    /// The non-throwing entry points (`resolve`, `@Inject`, `@HiltViewModel`) call this when a
    /// resolution fails, because they have no other way to report; a missing registration is a
    /// programming error, and the message says how to fix it. Use the throwing forms where a
    /// failure should be handled.
    func trap() -> Never {
        fatalError(description)
    }
}

extension DIError {
    /// A registration that looks like what was asked for but is not it.
    public struct NearMiss: Sendable, Hashable, CustomStringConvertible {
        /// How the registration differs from what was asked for.
        public enum Kind: Sendable, Hashable {
            /// The same type under another qualifier, or without one.
            case otherName
            /// `Optional<T>` registered where `T` was asked for, or the other way round.
            case optional
            /// An implementation of the protocol that was asked for, registered only as itself.
            ///
            /// Found for registrations that already have a value (instances and created
            /// singletons), because Swift cannot ask whether a type conforms without a value.
            case implementation
            /// The same type and qualifier, registered as multibinding contributions.
            case multibinding
        }

        /// How the registration differs.
        public let kind: Kind

        /// The registered type, as written in code.
        public let typeName: String

        /// The registered qualifier, if any.
        public let name: DI.Name?

        /// Who registered it: a module's type name, `DI.configure` or `DI.withOverrides`.
        public let origin: String

        /// The container that holds it.
        public let container: String

        /// The type that was asked for, for the advice in ``description``.
        let requestedTypeName: String

        /// One line that says what is registered and what to do about it.
        public var description: String {
            let registered = BindingInfo.displayName(typeName, name)
            let source = "(by \(origin) in \"\(container)\")"
            switch kind {
            case .otherName:
                let which = name.map { "under the name \"\($0.rawValue)\"" } ?? "without a name"
                return "\(typeName) is registered \(which) \(source)."
            case .optional:
                return "\(registered) is registered \(source); Optional<T> and T are different keys."
            case .implementation:
                return "\(registered) is registered \(source) and conforms to \(requestedTypeName); "
                    + "bind it with di.bind(\(requestedTypeName).self, to: \(typeName).self)."
            case .multibinding:
                return "\(registered) has multibinding contributions \(source); "
                    + "collect them with resolveAll."
            }
        }
    }
}
