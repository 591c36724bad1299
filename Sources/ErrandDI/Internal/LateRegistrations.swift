import ErrandSync
import Synchronization

/// Registrations made into a container's registrar after the container was built.
///
/// A container is closed once built, so such a registration cannot take effect; it is recorded
/// here instead, and every later resolve from the container, and `verify()`, report it as
/// ``DIError/Code/registrationAfterConfigure``. Resolving pays one atomic load for the check.
final class LateRegistrations: Sendable {
    /// Whether `list` holds anything; set once, never cleared.
    private let recorded = Atomic<Bool>(false)

    /// The late registrations, in the order they were made.
    private let list = Locked<[BindingInfo]>([])

    /// Creates an empty record.
    init() {}

    /// Whether any registration came late.
    var isEmpty: Bool {
        !recorded.load(ordering: .acquiring)
    }

    /// The late registrations, in the order they were made.
    var all: [BindingInfo] {
        list.withLock { $0 }
    }

    /// Records a registration made after the container was built.
    ///
    /// - Parameter binding: The registration.
    func record(_ binding: BindingInfo) {
        list.withLock { $0.append(binding) }
        recorded.store(true, ordering: .releasing)
    }
}

extension DI {
    /// Throws the first late registration of this container, if there is one.
    ///
    /// - Throws: ``DIError/Code/registrationAfterConfigure``.
    @inline(__always)
    func checkNoLateRegistration() throws(DIError) {
        if !lateRegistrations.isEmpty {
            try throwLateRegistration()
        }
    }

    /// Throws the first late registration of this container.
    ///
    /// - Throws: ``DIError/Code/registrationAfterConfigure``.
    @inline(never)
    private func throwLateRegistration() throws(DIError) {
        if let first = lateRegistrations.all.first {
            throw DIError.registrationAfterConfigure(first, in: self)
        }
    }
}
