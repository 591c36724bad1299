import Foundation

/// The shape of a JSON value: its types and keys, without its values.
///
/// Values (ids, timestamps, echoed headers) change from run to run; what a client relies on is
/// the shape. An array has one shape for all its elements, their union: the keys any element
/// has, each with the union of its values, and which of them every element has (the ones a
/// client decoding `[Item]` may require). A `null` says nothing about a type, so it merges into
/// any shape (the objects that hold it remember which keys were ever `null`), and an empty array
/// has no element shape to compare. The shape is not a tree of its own: one walk of a value
/// gathers, for each pattern (a path where `[*]` stands for every element), what its values
/// have in common, and the comparison reads that table.
extension ReplayJSON {
    /// A change between a recorded value and a live one, at a pattern where `[*]` stands for
    /// the elements of an array, and at the first concrete path in the live value that shows it.
    struct ShapeChange: Equatable {
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

    /// The type of this one value (`mixed` is only ever a union's).
    var type: VerificationReport.JSONType {
        switch self {
        case .null: .null
        case .bool: .boolean
        case .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    /// What the values at one pattern have in common.
    private struct Union {
        /// The type of the values that are not `null`: `null` when there are none, `mixed` when
        /// they differ.
        var type = VerificationReport.JSONType.null
        /// How many of the values are objects.
        var objects = 0
        /// Whether an array among the values has an element.
        var hasElements = false
        /// Each key of the objects, with how many have it and how many have it as `null`.
        var keys: [String: (count: Int, nulls: Int)] = [:]
    }

    /// Adds this value and everything in it to the table of unions, by pattern.
    private func gather(into table: inout [[ReplayJSONPath.Step]: Union], at pattern: [ReplayJSONPath.Step]) {
        var union = table[pattern] ?? Union()
        if self != .null {
            union.type = union.type == .null || union.type == type ? type : .mixed
        }
        switch self {
        case .object(let members):
            union.objects += 1
            for (key, value) in members {
                let seen = union.keys[key] ?? (0, 0)
                union.keys[key] = (seen.count + 1, seen.nulls + (value == .null ? 1 : 0))
                value.gather(into: &table, at: pattern + [.key(key)])
            }
        case .array(let elements):
            union.hasElements = union.hasElements || !elements.isEmpty
            for element in elements {
                element.gather(into: &table, at: pattern + [.anyIndex])
            }
        default:
            break
        }
        table[pattern] = union
    }

    private func unions() -> [[ReplayJSONPath.Step]: Union] {
        var table: [[ReplayJSONPath.Step]: Union] = [:]
        gather(into: &table, at: [])
        return table
    }

    /// The changes from `recorded` to `live`, in the order of their patterns (keys sorted).
    ///
    /// Keys added, types changed and values become `null` compare the union of the live
    /// elements with the union of the recorded ones. A missing key is looked for in each live
    /// object: a key that every recorded object at that place had is missing from the first live
    /// element that lacks it, such as `items[1].name`; a key only some recorded elements had
    /// is optional, and never missing.
    static func shapeChanges(recorded: ReplayJSON, live: ReplayJSON) -> [ShapeChange] {
        let table = recorded.unions()
        var list: [ShapeChange] = []
        unionChanges(recorded: table, live: live.unions(), pattern: [], into: &list)
        var seen: Set<[ReplayJSONPath.Step]> = []
        missingKeys(recorded: table, live: live, pattern: [], path: [], seen: &seen, into: &list)
        // Sorted by pattern; changes at one pattern keep the order they were found in.
        return list.enumerated().sorted { left, right in
            left.element.pattern == right.element.pattern
                ? left.offset < right.offset : precedes(left.element.pattern, right.element.pattern)
        }
        .map(\.element)
    }

    /// Added keys, type changes and nulls, comparing the two unions at `pattern`.
    private static func unionChanges(
        recorded: [[ReplayJSONPath.Step]: Union], live: [[ReplayJSONPath.Step]: Union],
        pattern: [ReplayJSONPath.Step], into list: inout [ShapeChange]
    ) {
        let left = recorded[pattern] ?? Union()
        let right = live[pattern] ?? Union()
        switch (left.type, right.type) {
        case (.null, _):
            return
        case (_, .null):
            list.append(ShapeChange(kind: .becameNull, pattern: pattern, path: nil))
        case (.object, .object):
            for key in right.keys.keys.sorted() {
                if left.keys[key] != nil {
                    unionChanges(recorded: recorded, live: live, pattern: pattern + [.key(key)], into: &list)
                } else {
                    list.append(ShapeChange(kind: .added, pattern: pattern + [.key(key)], path: nil))
                }
            }
        case (.array, .array):
            guard left.hasElements, right.hasElements else { return }
            unionChanges(recorded: recorded, live: live, pattern: pattern + [.anyIndex], into: &list)
        default:
            if left.type != right.type {
                list.append(
                    ShapeChange(
                        kind: .typeChanged(from: left.type, to: right.type), pattern: pattern, path: nil))
            }
        }
    }

    /// The required keys each live object lacks, and the keys it has as `null` that no recorded
    /// object at that place had as `null` (`items[1].name` among named items), once per pattern,
    /// at the first live object that shows it.
    private static func missingKeys(
        recorded: [[ReplayJSONPath.Step]: Union], live: ReplayJSON, pattern: [ReplayJSONPath.Step],
        path: [ReplayJSONPath.Step], seen: inout Set<[ReplayJSONPath.Step]>, into list: inout [ShapeChange]
    ) {
        let union = recorded[pattern] ?? Union()
        switch (union.type, live) {
        case (.object, .object(let liveMembers)):
            for key in union.keys.keys.sorted() {
                guard let counts = union.keys[key] else { continue }
                let keyPattern = pattern + [.key(key)]
                if liveMembers[key] == .null, counts.nulls == 0 {
                    // Once per pattern, and not again where the union already found it.
                    if !list.contains(where: { $0.kind == .becameNull && $0.pattern == keyPattern }) {
                        list.append(
                            ShapeChange(kind: .becameNull, pattern: keyPattern, path: path + [.key(key)]))
                    }
                } else if let value = liveMembers[key] {
                    missingKeys(
                        recorded: recorded, live: value, pattern: keyPattern, path: path + [.key(key)],
                        seen: &seen, into: &list)
                } else if counts.count == union.objects, seen.insert(keyPattern).inserted {
                    list.append(ShapeChange(kind: .missing, pattern: keyPattern, path: path + [.key(key)]))
                }
            }
        case (.array, .array(let elements)) where union.hasElements:
            for (index, value) in elements.enumerated() {
                missingKeys(
                    recorded: recorded, live: value, pattern: pattern + [.anyIndex],
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
        type == .mixed || self.type == type
    }
}
