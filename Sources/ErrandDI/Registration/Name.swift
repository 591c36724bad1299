import ErrandSync

extension DI {
    /// A typed qualifier that tells apart two registrations of the same type.
    ///
    /// Declare each name once, as a static member, and use the member at call sites; a name is not
    /// expressible by a string literal, so a typo at a call site is a compile error:
    ///
    /// ```swift
    /// extension DI.Name {
    ///     static let primary = DI.Name("primary")
    ///     static let uploads = DI.Name("uploads")
    /// }
    /// di.register(HTTPClient.self, name: .uploads, scope: .singleton) { _ in UploadClient() }
    /// let client: HTTPClient = try resolver.resolve(name: .uploads)
    /// ```
    ///
    /// Two names are equal when their raw values are equal. A name is interned when it is created,
    /// so comparing and hashing one during resolution costs an integer comparison.
    public struct Name: Hashable, Sendable, CustomStringConvertible {
        /// The text the name was declared with, as shown in error messages.
        public let rawValue: String

        /// A small integer unique to `rawValue`, used as the lookup key.
        @usableFromInline let id: Int

        /// Declares a qualifier.
        ///
        /// Call this once per name, in a `static let` on `DI.Name`, rather than at call sites.
        ///
        /// - Parameter rawValue: The text of the name; it appears in error messages.
        public init(_ rawValue: String) {
            self.rawValue = rawValue
            self.id = NameTable.shared.id(for: rawValue)
        }

        /// The name as it appears in error messages: `named "primary"`.
        public var description: String {
            "named \"\(rawValue)\""
        }

        /// Returns whether two names have the same raw value.
        ///
        /// - Parameters:
        ///   - lhs: A name.
        ///   - rhs: Another name.
        /// - Returns: `true` when both names were declared with the same text.
        public static func == (lhs: Name, rhs: Name) -> Bool {
            lhs.id == rhs.id
        }

        /// Feeds the name's interned identifier into `hasher`.
        ///
        /// - Parameter hasher: The hasher to feed.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(id)
        }
    }
}

/// Interns qualifier strings so that `DI.Name` compares and hashes as an integer.
///
/// Only `DI.Name.init` touches the table, normally once per declared name.
final class NameTable: Sendable {
    /// The process-wide table.
    static let shared = NameTable()

    /// Raw value to identifier, under its lock.
    private let ids = Locked<[String: Int]>([:])

    /// Returns the identifier of `rawValue`, assigning the next free one on first use.
    ///
    /// - Parameter rawValue: The text of a name.
    /// - Returns: An identifier greater than zero; zero is reserved for "no name".
    func id(for rawValue: String) -> Int {
        ids.withLock { ids in
            if let id = ids[rawValue] {
                return id
            }
            let id = ids.count + 1
            ids[rawValue] = id
            return id
        }
    }
}
