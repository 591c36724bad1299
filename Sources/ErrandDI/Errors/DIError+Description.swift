extension DIError {
    /// The error as a message for the person reading it: what was asked, what was found, and
    /// what to do.
    ///
    /// A missing registration reads, for example:
    ///
    /// ```text
    /// No registration for HTTPClient named "primary" in container "App".
    /// Resolution path: ProfileScreen → ProfileService → HTTPClient named "primary"
    /// Near misses:
    ///   - HTTPClient is registered without a name (by NetworkModule in "App").
    /// Register HTTPClient named "primary" in DI.configure or a DIModule, or ask for one of the near misses.
    /// ```
    public var description: String {
        switch code {
        case .missingRegistration: missingDescription
        case .dependencyCycle: cycleDescription
        case .factoryFailed: factoryDescription
        case .mainActorOnly: mainActorDescription
        case .typeMismatch: typeMismatchDescription
        case .invalidScope: invalidScopeDescription
        case .duplicateRegistration: duplicateDescription
        case .verificationFailed: verificationDescription
        case .registrationAfterConfigure: lateRegistrationDescription
        }
    }

    /// The binding concerned: `Type` or `Type named "name"`.
    private var subject: String {
        BindingInfo.displayName(typeName, name)
    }

    /// `container "App"`, followed by the parents that were searched too.
    private var containerPhrase: String {
        guard !parents.isEmpty else {
            return "container \"\(container)\""
        }
        let names = parents.map { "\"\($0)\"" }.joined(separator: ", ")
        return "container \"\(container)\" or its parents \(names)"
    }

    /// The path line: `Resolution path: A → B → C`.
    private var pathLine: String {
        "Resolution path: " + path.joined(separator: " → ")
    }

    /// The registering module, if the detail names one.
    private var origin: String {
        if case .origin(let origin) = detail {
            return origin
        }
        return "DI.configure"
    }

    /// The message of ``Code/missingRegistration``.
    private var missingDescription: String {
        var lines = ["No registration for \(subject) in \(containerPhrase).", pathLine]
        if nearMisses.isEmpty {
            lines.append("Near misses: none.")
            lines.append("Register \(subject) in DI.configure or a DIModule.")
        } else {
            lines.append("Near misses:")
            lines += nearMisses.map { "  - \($0)" }
            lines.append(
                "Register \(subject) in DI.configure or a DIModule, or ask for one of the near misses."
            )
        }
        return lines.joined(separator: "\n")
    }

    /// The message of ``Code/dependencyCycle``.
    private var cycleDescription: String {
        [
            "Dependency cycle in container \"\(container)\": \(path.joined(separator: " → ")).",
            "Each of these is needed again while it is being created. Break the cycle by injecting "
                + "Lazy<T> or Provider<T> on one of its edges, or remove one of the dependencies.",
        ].joined(separator: "\n")
    }

    /// The message of ``Code/factoryFailed``.
    private var factoryDescription: String {
        let reason = underlying.map { String(describing: $0) } ?? "an unknown error"
        return [
            "The factory of \(subject) (registered by \(origin) in container \"\(container)\") "
                + "threw: \(reason)",
            pathLine,
        ].joined(separator: "\n")
    }

    /// The message of ``Code/mainActorOnly``.
    private var mainActorDescription: String {
        [
            "\(subject) is registered with registerMainActor (by \(origin) in container "
                + "\"\(container)\"), so only code on the main actor can resolve it.",
            pathLine,
            "Resolve it with resolveOnMainActor or @HiltViewModel from @MainActor code, "
                + "or register it with register if it does not need the main actor.",
        ].joined(separator: "\n")
    }

    /// The message of ``Code/typeMismatch``.
    private var typeMismatchDescription: String {
        var implementation = "the implementation"
        if case .implementation(let type) = detail {
            implementation = type
        }
        return [
            "\(subject) is bound to \(implementation) in container \"\(container)\", "
                + "but \(implementation) does not conform to \(typeName).",
            pathLine,
            "Bind \(typeName) to a type that conforms to it.",
        ].joined(separator: "\n")
    }

    /// The message of ``Code/invalidScope``.
    private var invalidScopeDescription: String {
        guard case .scope(let scope, let reason) = detail else {
            return "\(subject) has a scope that cannot serve in container \"\(container)\".\n\(pathLine)"
        }
        switch reason {
        case .weakValueType:
            return [
                "\(subject) is registered with scope \(scope) in container \"\(container)\", but its "
                    + "values are not class instances and cannot be held weakly, so every resolve "
                    + "creates a new one.",
                "Register it with scope .unique or .singleton instead.",
            ].joined(separator: "\n")
        case .sharedViewModel:
            return [
                "\(subject) is registered with scope \(scope) in container \"\(container)\", but "
                    + "@HiltViewModel needs a new view model for each owner.",
                pathLine,
                "Register it with scope .unique (the default) or .viewModel.",
            ].joined(separator: "\n")
        }
    }

    /// The message of ``Code/duplicateRegistration``.
    private var duplicateDescription: String {
        var origins = "twice"
        if case .duplicate(let first, let second) = detail {
            origins = "twice: by \(first), then by \(second)"
        }
        return [
            "\(subject) is registered \(origins), in container \"\(container)\".",
            "The later registration wins. Remove one of them; to replace a binding in tests, "
                + "use DI.withOverrides.",
        ].joined(separator: "\n")
    }

    /// The message of ``Code/registrationAfterConfigure``.
    private var lateRegistrationDescription: String {
        [
            "\(subject) was registered through a registrar kept from \(origin) after the "
                + "configuration of container \"\(container)\" had returned; the container was already "
                + "built, so the registration was not applied.",
            "Register \(subject) inside the configuration closure or a DIModule; to replace a binding "
                + "in a test, use DI.withOverrides.",
        ].joined(separator: "\n")
    }

    /// The message of ``Code/verificationFailed``: every problem, numbered.
    private var verificationDescription: String {
        let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
        var lines = ["DI.verify() found \(count) in container \"\(container)\":"]
        for (index, problem) in problems.enumerated() {
            let body = problem.description.split(separator: "\n", omittingEmptySubsequences: false)
            let marker = "\(index + 1). "
            let indent = String(repeating: " ", count: marker.count)
            for (lineIndex, line) in body.enumerated() {
                lines.append((lineIndex == 0 ? marker : indent) + line)
            }
        }
        return lines.joined(separator: "\n")
    }
}
