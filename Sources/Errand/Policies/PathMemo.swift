import ErrandSync

/// A string worked out once per request path, such as the absolute URL a path resolves to: an app
/// asks for the same few paths again and again, and resolving one builds and parses a URL.
///
/// Bounded: past ``limit`` paths it starts again, so an app that makes paths up (an identifier in
/// each) does not grow it without end. Callers keep only paths without a query in it, so that no
/// value a redaction would hide is held here. `Sendable`: one lock guards the table.
package final class PathMemo: Sendable {
    /// How many paths are kept at most.
    package let limit: Int
    private let values = Locked<[String: String]>([:])

    /// Creates an empty memo of at most `limit` paths.
    package init(limit: Int = 256) {
        self.limit = max(1, limit)
    }

    /// The value for `path`, made by `make` the first time; `nil` (and nothing kept) when `make`
    /// gives none.
    package func value(for path: String, otherwise make: () -> String?) -> String? {
        if let known = values.withLock({ $0[path] }) { return known }
        guard let made = make() else { return nil }
        values.withLock { values in
            if values.count >= limit { values.removeAll(keepingCapacity: true) }
            values[path] = made
        }
        return made
    }

    /// Whether `text` has a query or a fragment: what a memo keyed by path alone must not hold.
    package static func hasQueryOrFragment(_ text: String) -> Bool {
        text.utf8.contains { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
    }
}
