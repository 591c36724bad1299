import ErrandSync

/// How often each kind of outcome and each cancel moment came up in a run, printed at its end
/// so a reader can see that the scenarios reach every path they claim to.
final class ChaosTally: Sendable {
    private let counts = Locked<[String: Int]>([:])

    /// Counts one occurrence of `kind`.
    func count(_ kind: String) {
        counts.withLock { $0[kind, default: 0] += 1 }
    }

    /// Counts the outcome of one request, by its kind, not its details.
    func count(_ outcome: ChaosOutcome, prefix: String = "") {
        switch outcome {
        case .response(let status, _): count("\(prefix)response \(status)")
        case .value: count("\(prefix)decoded value")
        case .failure(let code, _, let attempts):
            count("\(prefix)\(code)\(attempts > 1 ? " after retries" : "")")
        }
    }

    /// Every kind with its count, most frequent first.
    var summary: String {
        counts.withLock { counts in
            counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key): \($0.value)" }
                .joined(separator: ", ")
        }
    }
}
