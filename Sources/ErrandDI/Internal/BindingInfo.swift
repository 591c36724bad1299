/// The lookup key of a binding: the identity of the registered type plus its qualifier.
///
/// Hashing combines two integers; no strings are built on the resolution path.
struct BindingKey: Hashable, Sendable {
    /// The registered type.
    let type: ObjectIdentifier

    /// The interned identifier of the qualifier, or zero for none.
    let nameID: Int

    /// Creates the key of `T` under `name`.
    ///
    /// Only the static type `T` counts, never the metatype value passed at run time (which may be
    /// a subclass's), so a key always names the type of the values its binding makes.
    ///
    /// - Parameters:
    ///   - type: The registered or requested type.
    ///   - name: The qualifier, if any.
    @inline(__always)
    init<T>(_ type: T.Type, name: DI.Name?) {
        self.type = ObjectIdentifier(T.self)
        self.nameID = name?.id ?? 0
    }

    /// Creates the key of the type with identifier `type` under the qualifier `nameID`.
    init(type: ObjectIdentifier, nameID: Int) {
        self.type = type
        self.nameID = nameID
    }
}

/// What a binding is, apart from how it makes its value.
enum BindingKind: Sendable, Equatable {
    /// Resolved with `resolve` from any isolation.
    case plain
    /// Registered with `registerMainActor`; resolved only on the main actor.
    case mainActor
    /// One contribution to a multibinding, resolved with `resolveAll`.
    case contribution
}

/// Everything about a binding that error messages, cycle detection and `verify()` need.
///
/// One instance per registration, shared by every container built from the registration, so
/// identity (`===`) tells whether a binding is already being created on the current thread.
final class BindingInfo: Sendable {
    /// The registered type and qualifier.
    let key: BindingKey

    /// The registered type as written in code, computed once at registration.
    let typeName: String

    /// The qualifier, if any.
    let name: DI.Name?

    /// The lifetime of the binding's values.
    let scope: DI.Scope

    /// How the binding is resolved.
    let kind: BindingKind

    /// Who registered it: a module's type name, `DI.configure`, or `DI.withOverrides`.
    let origin: String

    /// The identity of `Optional<T>` for the registered `T`, for the optional near miss.
    let optionalOfType: ObjectIdentifier

    /// The identity of `T` when the registered type is `Optional<T>`, else `nil`.
    let wrappedType: ObjectIdentifier?

    /// Records a registration of `type`.
    ///
    /// - Parameters:
    ///   - type: The registered type.
    ///   - name: Its qualifier.
    ///   - scope: Its lifetime.
    ///   - kind: How it is resolved.
    ///   - origin: Who registered it.
    init<T>(_ type: T.Type, name: DI.Name?, scope: DI.Scope, kind: BindingKind, origin: String) {
        self.key = BindingKey(type, name: name)
        self.typeName = String(describing: T.self)
        self.name = name
        self.scope = scope
        self.kind = kind
        self.origin = origin
        self.optionalOfType = ObjectIdentifier(T?.self)
        self.wrappedType = (T.self as? any OptionalMarker.Type)?.wrappedTypeID
    }

    /// The binding as it appears in paths: `HTTPClient` or `HTTPClient named "primary"`.
    var displayName: String {
        BindingInfo.displayName(typeName, name)
    }

    /// Formats a type and qualifier as it appears in error messages.
    ///
    /// - Parameters:
    ///   - typeName: The type as written in code.
    ///   - name: Its qualifier, if any.
    /// - Returns: `Type` or `Type named "name"`.
    static func displayName(_ typeName: String, _ name: DI.Name?) -> String {
        guard let name else {
            return typeName
        }
        return "\(typeName) \(name)"
    }
}

/// Lets the near-miss search see through `Optional<T>` to `T`.
protocol OptionalMarker {
    /// The identity of the wrapped type.
    static var wrappedTypeID: ObjectIdentifier { get }
}

extension Optional: OptionalMarker {
    /// The identity of `Wrapped`.
    static var wrappedTypeID: ObjectIdentifier {
        ObjectIdentifier(Wrapped.self)
    }
}
