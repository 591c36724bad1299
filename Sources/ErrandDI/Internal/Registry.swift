/// One registration: what it is and how to build its slot for a new container.
///
/// The same registration serves every container built from it (the configured one, the scratch
/// container of `verify()`, each override container), and each gets fresh caches.
struct Registration: Sendable {
    /// How to build the slot.
    enum Maker: Sendable {
        /// A binding resolvable from any isolation.
        case nonisolated(@Sendable () -> Slot)
        /// A binding resolvable on the main actor only.
        case mainActor(@Sendable () -> MainActorSlot)
    }

    /// What the binding is.
    let info: BindingInfo

    /// Builds the binding's slot for one container.
    let maker: Maker
}

/// Two registrations of the same type and qualifier in one configuration.
struct Duplicate: Sendable {
    /// The registration that was replaced.
    let first: BindingInfo

    /// The registration that won.
    let second: BindingInfo
}

/// Everything a configuration produced, in registration order. Immutable once built.
struct Registry: Sendable {
    /// The registrations, in the order they were made.
    var registrations: [Registration] = []

    /// The settings written during configuration.
    var settings = DI.Settings()

    /// Registrations that replaced an earlier one of the same key.
    var duplicates: [Duplicate] = []

    /// The registrations of `other` followed by these: what a flattened container holds.
    ///
    /// - Parameter other: The registry of a parent container.
    /// - Returns: A registry in which these registrations win over `other`'s.
    func layered(over other: Registry) -> Registry {
        Registry(
            registrations: other.registrations + registrations,
            settings: settings,
            duplicates: other.duplicates + duplicates
        )
    }
}

/// The slots of one container, looked up without a lock because they never change.
struct SlotTable: Sendable {
    /// Bindings resolvable from any isolation; later registrations win.
    let nonisolated: SlotIndex

    /// Bindings registered with `registerMainActor`, by key.
    let mainActor: [BindingKey: MainActorSlot]

    /// Multibinding contributions, by key, in registration order.
    let contributions: [BindingKey: [Slot]]

    /// Slots of named scopes, for `reset(_:)`.
    let named: [DI.ScopeName: [any AnySlot]]

    /// Every slot in registration order, for `verify()` and near misses; replaced registrations
    /// are left out.
    let ordered: [any AnySlot]

    /// Builds fresh slots for every registration of `registry`.
    ///
    /// - Parameter registry: A closed registry.
    init(_ registry: Registry) {
        var nonisolated: [BindingKey: Slot] = [:]
        var mainActor: [BindingKey: MainActorSlot] = [:]
        var contributions: [BindingKey: [Slot]] = [:]
        var all: [any AnySlot] = []
        for registration in registry.registrations {
            switch (registration.maker, registration.info.kind) {
            case (.nonisolated(let make), .contribution):
                let slot = make()
                contributions[registration.info.key, default: []].append(slot)
                all.append(slot)
            case (.nonisolated(let make), _):
                let slot = make()
                nonisolated[registration.info.key] = slot
                all.append(slot)
            case (.mainActor(let make), _):
                let slot = make()
                mainActor[registration.info.key] = slot
                all.append(slot)
            }
        }
        let ordered = all.filter { slot in
            switch slot.info.kind {
            case .contribution: true
            case .plain: nonisolated[slot.info.key] === slot
            case .mainActor: mainActor[slot.info.key] === slot
            }
        }
        var named: [DI.ScopeName: [any AnySlot]] = [:]
        for slot in ordered {
            if case .named(let scopeName) = slot.info.scope.kind {
                named[scopeName, default: []].append(slot)
            }
        }
        self.nonisolated = SlotIndex(nonisolated)
        self.mainActor = mainActor
        self.contributions = contributions
        self.named = named
        self.ordered = ordered
    }
}
