import Foundation

/// The shape of a JSON value: its types and keys, without its values.
///
/// Values (ids, timestamps, echoed headers) change from run to run; what a client relies on is
/// the shape. An array has one shape for all its elements, their union: the keys any element
/// has, each with the union of its shapes, and which of them every element has (the ones a
/// client decoding `[Item]` may require). A `null` says nothing about a type, so it merges into
/// any shape (the object that holds it remembers which keys were ever `null`), and an empty
/// array has no element shape to compare.
indirect enum JSONShape: Equatable, Sendable {
    case null
    case boolean
    case number
    case string
    /// An array and the union of its elements' shapes; `nil` when it is empty.
    case array(JSONShape?)
    /// An object's members, the keys that every object merged into this shape has, and the
    /// keys that no object merged into it had as `null`.
    case object([String: JSONShape], required: Set<String>, nonNull: Set<String>)
    /// Elements of one array with different types.
    case mixed

    /// The shape of a value.
    init(_ value: ReplayJSON) {
        switch value {
        case .null: self = .null
        case .bool: self = .boolean
        case .number: self = .number
        case .string: self = .string
        case .object(let members):
            self = .object(
                members.mapValues(JSONShape.init), required: Set(members.keys),
                nonNull: Set(members.filter { $0.value != .null }.keys))
        case .array(let elements):
            self = .array(
                elements.map(JSONShape.init).reduce(JSONShape?.none) { union, next in
                    union?.merged(with: next) ?? next
                })
        }
    }

    /// The type a difference names.
    var type: VerificationReport.JSONType {
        switch self {
        case .null: .null
        case .boolean: .boolean
        case .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        case .mixed: .mixed
        }
    }

    /// The union of two shapes, as two elements of one array: a key is required only when
    /// both have it.
    func merged(with other: JSONShape) -> JSONShape {
        switch (self, other) {
        case (.null, _): return other
        case (_, .null): return self
        case (.array(let left), .array(let right)):
            guard let left, let right else { return .array(left ?? right) }
            return .array(left.merged(with: right))
        case (
            .object(let left, let leftRequired, let leftNonNull),
            .object(let right, let rightRequired, let rightNonNull)
        ):
            let everNull = Set(left.keys).subtracting(leftNonNull).union(
                Set(right.keys).subtracting(rightNonNull))
            return .object(
                left.merging(right) { $0.merged(with: $1) },
                required: leftRequired.intersection(rightRequired),
                nonNull: leftNonNull.union(rightNonNull).subtracting(everNull))
        default:
            return type == other.type ? self : .mixed
        }
    }

    /// A change between a recorded value and a live one, at a pattern where `[*]` stands for
    /// the elements of an array, and at the first concrete path in the live value that shows it.
    struct Change: Equatable {
        enum Kind: Equatable {
            case added
            case missing
            case typeChanged(from: VerificationReport.JSONType, to: VerificationReport.JSONType)
            case becameNull
        }

        let kind: Kind
        let pattern: [ReplayJSONPath.Step]
        /// Where the live value shows it, with indices for `[*]`; `nil` when the pattern is
        /// resolved later.
        let path: [ReplayJSONPath.Step]?
    }

    /// The changes from `recorded` to `live`, in the order of their patterns (keys sorted).
    ///
    /// Keys added, types changed and values become `null` compare the union of the live
    /// elements with the union of the recorded ones. A missing key is looked for in each live
    /// object: a key that every recorded object at that place had is missing from the first live
    /// element that lacks it, such as `items[1].name`; a key only some recorded elements had
    /// is optional, and never missing.
    static func changes(recorded: ReplayJSON, live: ReplayJSON) -> [Change] {
        let shape = JSONShape(recorded)
        var list: [Change] = []
        unionChanges(recorded: shape, live: JSONShape(live), path: [], into: &list)
        var seen: Set<[ReplayJSONPath.Step]> = []
        missingKeys(recorded: shape, live: live, pattern: [], path: [], seen: &seen, into: &list)
        // Sorted by pattern; changes at one pattern keep the order they were found in.
        return list.enumerated().sorted { left, right in
            left.element.pattern == right.element.pattern
                ? left.offset < right.offset : precedes(left.element.pattern, right.element.pattern)
        }
        .map(\.element)
    }

    /// Added keys, type changes and nulls, comparing the two unions.
    private static func unionChanges(
        recorded: JSONShape, live: JSONShape, path: [ReplayJSONPath.Step], into list: inout [Change]
    ) {
        switch (recorded, live) {
        case (.null, _):
            return
        case (_, .null):
            list.append(Change(kind: .becameNull, pattern: path, path: nil))
        case (.object(let left, _, _), .object(let right, _, _)):
            for key in right.keys.sorted() {
                guard let liveValue = right[key] else { continue }
                if let recordedValue = left[key] {
                    unionChanges(
                        recorded: recordedValue, live: liveValue, path: path + [.key(key)], into: &list)
                } else {
                    list.append(Change(kind: .added, pattern: path + [.key(key)], path: nil))
                }
            }
        case (.array(let left), .array(let right)):
            guard let left, let right else { return }
            unionChanges(recorded: left, live: right, path: path + [.anyIndex], into: &list)
        default:
            if recorded.type != live.type {
                list.append(
                    Change(kind: .typeChanged(from: recorded.type, to: live.type), pattern: path, path: nil))
            }
        }
    }

    /// The required keys each live object lacks, and the keys it has as `null` that no recorded
    /// object at that place had as `null` (`items[1].name` among named items), once per pattern,
    /// at the first live object that shows it.
    private static func missingKeys(
        recorded: JSONShape, live: ReplayJSON, pattern: [ReplayJSONPath.Step], path: [ReplayJSONPath.Step],
        seen: inout Set<[ReplayJSONPath.Step]>, into list: inout [Change]
    ) {
        switch (recorded, live) {
        case (.object(let members, let required, let nonNull), .object(let liveMembers)):
            for key in members.keys.sorted() {
                guard let shape = members[key] else { continue }
                let keyPattern = pattern + [.key(key)]
                if liveMembers[key] == .null, nonNull.contains(key) {
                    // Once per pattern, and not again where the union already found it.
                    if !list.contains(where: { $0.kind == .becameNull && $0.pattern == keyPattern }) {
                        list.append(Change(kind: .becameNull, pattern: keyPattern, path: path + [.key(key)]))
                    }
                } else if let value = liveMembers[key] {
                    missingKeys(
                        recorded: shape, live: value, pattern: pattern + [.key(key)],
                        path: path + [.key(key)],
                        seen: &seen, into: &list)
                } else if required.contains(key), seen.insert(pattern + [.key(key)]).inserted {
                    list.append(
                        Change(kind: .missing, pattern: pattern + [.key(key)], path: path + [.key(key)]))
                }
            }
        case (.array(let element?), .array(let elements)):
            for (index, value) in elements.enumerated() {
                missingKeys(
                    recorded: element, live: value, pattern: pattern + [.anyIndex],
                    path: path + [.index(index)],
                    seen: &seen, into: &list)
            }
        default:
            return
        }
    }

    /// Whether pattern `left` comes before `right` when keys are visited in sorted order,
    /// depth first.
    private static func precedes(_ left: [ReplayJSONPath.Step], _ right: [ReplayJSONPath.Step]) -> Bool {
        for (a, b) in zip(left, right) where a != b {
            switch (a, b) {
            case (.key(let x), .key(let y)): return x < y
            case (.anyIndex, _): return true
            default: return false
            }
        }
        return left.count < right.count
    }
}

extension ReplayJSON {
    /// The first concrete path that `pattern` (where `[*]` is any element) reaches in this
    /// value and where `test` holds, such as `users[2].zip` for `users[*].zip`.
    ///
    /// - Parameters:
    ///   - pattern: The path, with `.anyIndex` steps for array elements.
    ///   - test: What the value at the end of the path must satisfy.
    /// - Returns: The path with each `[*]` replaced by an index, or `nil` when none fits.
    func firstPath(
        matching pattern: ArraySlice<ReplayJSONPath.Step>, from prefix: [ReplayJSONPath.Step] = [],
        where test: (ReplayJSON) -> Bool
    ) -> [ReplayJSONPath.Step]? {
        guard let step = pattern.first else { return test(self) ? prefix : nil }
        let rest = pattern.dropFirst()
        switch (self, step) {
        case (.object(let members), .key(let key)):
            return members[key]?.firstPath(matching: rest, from: prefix + [step], where: test)
        case (.array(let elements), .anyIndex):
            for (index, element) in elements.enumerated() {
                if let path = element.firstPath(matching: rest, from: prefix + [.index(index)], where: test) {
                    return path
                }
            }
            return nil
        default:
            return nil
        }
    }

    /// Whether this value has the given type; any value fits `mixed`.
    func fits(_ type: VerificationReport.JSONType) -> Bool {
        type == .mixed || JSONShape(self).type == type
    }
}
