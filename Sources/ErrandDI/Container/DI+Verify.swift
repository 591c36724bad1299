extension DI {
    /// Resolves every registration in a scratch container and reports all problems at once.
    ///
    /// This is Hilt's compile-time graph check as one line in a test:
    ///
    /// ```swift
    /// @Test func dependencyGraphIsComplete() async throws {
    ///     try await AppContainer.make().verify()
    /// }
    /// ```
    ///
    /// The scratch container has the same registrations, parents and settings, and caches of its
    /// own, so nothing created here leaks into this container. Every binding is resolved once,
    /// main-actor bindings on the main actor, and the problems are collected: missing
    /// registrations (with their paths and near misses), cycles (each reported once, however many
    /// of its members were checked), failing factories, `bind` type mismatches, weak bindings of
    /// value types, keys registered twice in one configuration, and registrations made through a
    /// registrar kept after its configuration returned.
    ///
    /// Factories really run, so keep them free of side effects such as network calls, or
    /// override those bindings for the check.
    ///
    /// - Throws: ``DIError`` with code ``DIError/Code/verificationFailed``, whose
    ///   ``DIError/problems`` lists every problem in registration order.
    public func verify() async throws(DIError) {
        let scratch = scratchCopy()
        var problems: [DIError] = []
        for container in ([self] + ancestors).reversed() {
            problems += container.lateRegistrations.all.map {
                DIError.registrationAfterConfigure($0, in: container)
            }
        }
        for container in ([scratch] + scratch.ancestors).reversed() {
            problems += container.registry.duplicates.map { DIError.duplicate($0, in: container) }
            for slot in container.slots.ordered {
                if let slot = slot as? Slot, let problem = slot.check(in: container) {
                    problems.append(problem)
                }
            }
            problems += await MainActor.run { container.checkMainActorSlots() }
        }
        let unique = DI.removingRepeats(problems)
        if !unique.isEmpty {
            throw DIError.verificationFailed(unique, in: self)
        }
    }

    /// A copy of this container and its parents with the same registrations and empty caches.
    ///
    /// - Returns: The copy.
    func scratchCopy() -> DI {
        DI(name: name, parent: parent?.scratchCopy(), registry: registry)
    }

    /// Resolves every main-actor binding of this container once.
    ///
    /// - Returns: The problems found.
    @MainActor
    private func checkMainActorSlots() -> [DIError] {
        slots.ordered.compactMap { slot in
            (slot as? MainActorSlot)?.check(in: self)
        }
    }

    /// Drops problems that another problem already reports.
    ///
    /// A missing binding reached from several places is reported once, with the first path; a
    /// cycle is reported once however many of its members were checked.
    ///
    /// - Parameter problems: The problems in the order they were found.
    /// - Returns: The problems without repeats, in the same order.
    private static func removingRepeats(_ problems: [DIError]) -> [DIError] {
        var seen: Set<String> = []
        return problems.filter { problem in
            let identity: String
            if problem.code == .dependencyCycle {
                identity = "cycle " + Set(problem.path).sorted().joined(separator: "|")
            } else {
                identity = "\(problem.code) \(BindingInfo.displayName(problem.typeName, problem.name))"
            }
            return seen.insert(identity).inserted
        }
    }
}
