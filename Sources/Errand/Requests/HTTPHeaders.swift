/// An ordered list of HTTP header fields with case-insensitive lookup.
///
/// Names keep the spelling they were given; lookups, replacement and removal ignore case, as
/// HTTP requires. Used for both request and response headers.
public struct HTTPHeaders: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral,
    CustomStringConvertible
{
    /// One header field.
    public struct Field: Hashable, Sendable {
        /// The field name, as given.
        public var name: String
        /// The field value.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in the order they were added.
    public private(set) var fields: [Field]

    /// Creates an empty list, or one holding `fields` in order.
    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    /// Creates a list from a dictionary; the fields are sorted by name so the order is stable.
    public init(_ dictionary: [String: String]) {
        self.fields = dictionary.sorted { $0.key < $1.key }.map { Field(name: $0.key, value: $0.value) }
    }

    /// Creates a list from a dictionary literal, keeping the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The value of the first field named `name`, ignoring case; `nil` when there is none.
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveEquals(name) }?.value }
        set {
            if let newValue {
                set(name, newValue)
            } else {
                remove(name)
            }
        }
    }

    /// Every value of the fields named `name`, ignoring case, in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// Whether a field named `name` is present, ignoring case.
    public func contains(_ name: String) -> Bool {
        fields.contains { $0.name.caseInsensitiveEquals(name) }
    }

    /// Replaces every field named `name` (ignoring case) by one field with `value`.
    ///
    /// The new field takes the place of the first one it replaces, or goes last.
    public mutating func set(_ name: String, _ value: String) {
        if let index = fields.firstIndex(where: { $0.name.caseInsensitiveEquals(name) }) {
            fields[index] = Field(name: name, value: value)
            var seen = false
            fields.removeAll { field in
                guard field.name.caseInsensitiveEquals(name) else { return false }
                defer { seen = true }
                return seen
            }
        } else {
            fields.append(Field(name: name, value: value))
        }
    }

    /// Adds a field, keeping any others of the same name (for repeatable fields).
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field named `name`, ignoring case.
    public mutating func remove(_ name: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
    }

    /// Adds the fields of `other` that are not already present here (by name, ignoring case).
    public func merging(defaults other: HTTPHeaders) -> HTTPHeaders {
        var result = self
        for field in other.fields where !contains(field.name) {
            result.add(field.name, field.value)
        }
        return result
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// Iterates over the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    /// The fields as `Name: value` lines, each escaped onto its one line, and the values of
    /// secret headers (those ``SecretVocabulary/default`` names, such as `Authorization` and
    /// `Cookie`) shown as its placeholder.
    public var description: String {
        let vocabulary = RequestData.descriptionVocabulary
        return fields.map { field in
            let value = vocabulary.matches(field.name) ? vocabulary.placeholder : field.value
            return EscapedText.line("\(field.name): \(value)")
        }
        .joined(separator: "\n")
    }

    /// Two lists are equal when they hold the same names (ignoring case) and values in the same order.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy {
                $0.name.caseInsensitiveEquals($1.name) && $0.value == $1.value
            }
    }

    /// Hashes the names (lower-cased) and values in order.
    public func hash(into hasher: inout Hasher) {
        for field in fields {
            hasher.combine(field.name.lowercased())
            hasher.combine(field.value)
        }
    }
}

extension String {
    /// ASCII case-insensitive equality, as header names need, without allocating.
    package func caseInsensitiveEquals(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        // A loop over one iterator: `zip` is not inlined here, and header lookups run it often.
        var rhs = other.utf8.makeIterator()
        for a in utf8 {
            guard let b = rhs.next() else { return false }
            if a != b, !(a | 0x20 == b | 0x20 && (a | 0x20) >= 0x61 && (a | 0x20) <= 0x7A) { return false }
        }
        return true
    }

    /// Whether this string sorts before `other` with ASCII letters compared as lower case, as
    /// `lowercased() <` would for header names, without allocating.
    func caseInsensitiveLess(_ other: String) -> Bool {
        var rhs = other.utf8.makeIterator()
        for a in utf8 {
            guard let b = rhs.next() else { return false }
            let (x, y) = (Self.lowercasedASCII(a), Self.lowercasedASCII(b))
            if x != y { return x < y }
        }
        return rhs.next() != nil
    }

    private static func lowercasedASCII(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
}
