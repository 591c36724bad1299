import ErrandSync

/// A value worked out once per request path, such as the absolute URL a path resolves to: an app
/// asks for the same few paths again and again, and resolving one builds and parses a URL.
///
/// Bounded: past ``limit`` paths it starts again, so an app that makes paths up (an identifier in
/// each) does not grow it without end. Callers keep only paths without a query in it (see
/// ``Swift/String/hasQueryOrFragment``), so that no value a redaction would hide is held here.
/// `Sendable`: one lock guards the table.
package final class PathMemo<Value: Sendable>: Sendable {
    /// How many paths are kept at most.
    package let limit: Int
    private let values = Locked<[String: Value]>([:])

    /// Creates an empty memo of at most `limit` paths.
    package init(limit: Int = 256) {
        self.limit = max(1, limit)
    }

    /// The value for `path`, made by `make` the first time; `nil` (and nothing kept) when `make`
    /// gives none. What `make` throws goes to the caller, and nothing is kept.
    package func value<Failure: Error>(
        for path: String, otherwise make: () throws(Failure) -> Value?
    ) throws(Failure) -> Value? {
        if let known = values.withLock({ $0[path] }) { return known }
        guard let made = try make() else { return nil }
        values.withLock { values in
            if values.count >= limit { values.removeAll(keepingCapacity: true) }
            values[path] = made
        }
        return made
    }
}

extension String {
    /// Whether this URL or path has a query or a fragment: what a memo keyed by path alone must
    /// not hold.
    package var hasQueryOrFragment: Bool {
        utf8.contains { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
    }
}
