/// The constructors of each kind of `DIError`, called only on failure paths.
extension DIError {
    /// Nothing is registered for `type` under `name` in `container` or its parents.
    ///
    /// - Parameters:
    ///   - type: The requested type.
    ///   - name: The requested qualifier.
    ///   - container: The container that was asked.
    /// - Returns: The error, with the current resolution path and the near misses.
    static func missing<T>(_ type: T.Type, name: DI.Name?, in container: DI) -> DIError {
        let requested = BindingInfo.displayName(String(describing: T.self), name)
        return DIError(
            code: .missingRegistration,
            typeName: String(describing: T.self),
            name: name,
            path: ResolutionStack.current.frames.map(\.displayName) + [requested],
            container: container,
            nearMisses: nearMisses(for: type, name: name, in: container)
        )
    }

    /// A main-actor binding was asked for through a nonisolated entry point.
    ///
    /// - Parameters:
    ///   - info: The main-actor binding.
    ///   - container: The container that was asked.
    /// - Returns: The error.
    static func mainActorOnly(_ info: BindingInfo, in container: DI) -> DIError {
        DIError(
            code: .mainActorOnly,
            typeName: info.typeName,
            name: info.name,
            path: ResolutionStack.current.frames.map(\.displayName) + [info.displayName],
            container: container,
            detail: .origin(info.origin)
        )
    }

    /// `binding` was asked for while it was being created on this thread.
    ///
    /// - Parameters:
    ///   - binding: The binding asked for again.
    ///   - container: The container in which it was asked for.
    /// - Returns: The error, whose path is the closed cycle.
    static func cycle(at binding: BindingInfo, in container: DI) -> DIError {
        DIError(
            code: .dependencyCycle,
            typeName: binding.typeName,
            name: binding.name,
            path: ResolutionStack.current.cycle(closingAt: binding).map(\.displayName),
            container: container
        )
    }

    /// A cycle found by a creation gate: waiting for the gate would wait, through other threads,
    /// for a gate this thread holds.
    ///
    /// - Parameters:
    ///   - path: The bindings of the cycle, closed with the first one.
    ///   - container: The container in which the gate was wanted.
    /// - Returns: The error; its type is the binding that closes the cycle.
    static func cycle(path: [BindingInfo], in container: DI) -> DIError {
        DIError(
            code: .dependencyCycle,
            typeName: path.last?.typeName ?? "",
            name: path.last?.name,
            path: path.map(\.displayName),
            container: container
        )
    }

    /// The factory of `binding` threw `underlying`.
    ///
    /// - Parameters:
    ///   - binding: The binding whose factory threw; it is the last element of the path.
    ///   - underlying: What the factory threw.
    ///   - container: The container that owns the binding.
    /// - Returns: The error.
    static func factoryFailed(_ binding: BindingInfo, underlying: any Error, in container: DI) -> DIError {
        DIError(
            code: .factoryFailed,
            typeName: binding.typeName,
            name: binding.name,
            path: ResolutionStack.current.frames.map(\.displayName),
            container: container,
            underlying: underlying,
            detail: .origin(binding.origin)
        )
    }

    /// A `bind(_:to:)` implementation does not conform to the bound type.
    ///
    /// - Parameters:
    ///   - typeName: The bound type.
    ///   - name: Its qualifier.
    ///   - implementation: The implementation type.
    ///   - container: The container that owns the binding.
    /// - Returns: The error.
    static func typeMismatch(
        _ typeName: String, name: DI.Name?, implementation: String, in container: DI
    ) -> DIError {
        DIError(
            code: .typeMismatch,
            typeName: typeName,
            name: name,
            path: ResolutionStack.current.frames.map(\.displayName),
            container: container,
            detail: .implementation(implementation)
        )
    }

    /// `binding`'s scope cannot serve.
    ///
    /// - Parameters:
    ///   - binding: The binding.
    ///   - reason: Why its scope cannot serve.
    ///   - container: The container that owns it.
    /// - Returns: The error.
    static func invalidScope(_ binding: BindingInfo, reason: ScopeReason, container: DI) -> DIError {
        DIError(
            code: .invalidScope,
            typeName: binding.typeName,
            name: binding.name,
            path: ResolutionStack.current.frames.map(\.displayName) + [binding.displayName],
            container: container,
            detail: .scope(binding.scope, reason)
        )
    }

    /// One configuration registered the same key twice.
    ///
    /// - Parameters:
    ///   - duplicate: The two registrations.
    ///   - container: The configured container.
    /// - Returns: The error.
    static func duplicate(_ duplicate: Duplicate, in container: DI) -> DIError {
        DIError(
            code: .duplicateRegistration,
            typeName: duplicate.second.typeName,
            name: duplicate.second.name,
            path: [duplicate.second.displayName],
            container: container,
            detail: .duplicate(first: duplicate.first.origin, second: duplicate.second.origin)
        )
    }

    /// `binding` was registered into the registrar of `container` after the container was built.
    ///
    /// - Parameters:
    ///   - binding: The late registration.
    ///   - container: The container built from the registrar.
    /// - Returns: The error.
    static func registrationAfterConfigure(_ binding: BindingInfo, in container: DI) -> DIError {
        DIError(
            code: .registrationAfterConfigure,
            typeName: binding.typeName,
            name: binding.name,
            path: [binding.displayName],
            container: container,
            detail: .origin(binding.origin)
        )
    }

    /// `verify()` found `problems`.
    ///
    /// - Parameters:
    ///   - problems: Every problem, in registration order.
    ///   - container: The verified container.
    /// - Returns: The error.
    static func verificationFailed(_ problems: [DIError], in container: DI) -> DIError {
        DIError(
            code: .verificationFailed,
            typeName: "DI",
            name: nil,
            path: [],
            container: container,
            problems: problems
        )
    }

    /// Registrations in `container` and its parents that look like `type` under `name`.
    ///
    /// - Parameters:
    ///   - type: The requested type.
    ///   - name: The requested qualifier.
    ///   - container: The container that was asked.
    /// - Returns: The near misses, nearest container first, in registration order.
    private static func nearMisses<T>(for type: T.Type, name: DI.Name?, in container: DI) -> [NearMiss] {
        let key = BindingKey(type, name: name)
        let optionalOfType = ObjectIdentifier(T?.self)
        let wrappedType = (T.self as? any OptionalMarker.Type)?.wrappedTypeID
        var found: [NearMiss] = []
        for owner in [container] + container.ancestors {
            for slot in owner.slots.ordered {
                let info = slot.info
                let kind: NearMiss.Kind
                if info.key == key {
                    guard info.kind == .contribution else { continue }
                    kind = .multibinding
                } else if info.key.type == key.type {
                    kind = .otherName
                } else if info.key.type == optionalOfType || info.key.type == wrappedType {
                    kind = .optional
                } else if let value = slot.cache?.currentValue(), value is T {
                    kind = .implementation
                } else {
                    continue
                }
                found.append(
                    NearMiss(
                        kind: kind,
                        typeName: info.typeName,
                        name: info.name,
                        origin: info.origin,
                        container: owner.name,
                        requestedTypeName: String(describing: T.self)
                    )
                )
            }
        }
        return found
    }
}
