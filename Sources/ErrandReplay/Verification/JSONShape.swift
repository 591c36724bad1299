import Foundation

/// The shape of a JSON value: its types and keys, without its values.
///
/// Values (ids, timestamps, echoed headers) change from run to run; what a client relies on is
/// the shape. An array has one shape for all its elements, their union: the keys any element
/// has, each with the union of its shapes, so one element more or less does not matter. A
/// `null` says nothing about a type, so it merges into any shape, and an empty array has no
/// element shape to compare.
indirect enum JSONShape: Equatable, Sendable {
    case null
    case boolean
    case number
    case string
    /// An array and the union of its elements' shapes; `nil` when it is empty.
    case array(JSONShape?)
    case object([String: JSONShape])
    /// Elements of one array with different types.
    case mixed

    /// The shape of a value.
    init(_ value: ReplayJSON) {
        switch value {
        case .null: self = .null
        case .bool: self = .boolean
        case .number: self = .number
        case .string: self = .string
        case .object(let members): self = .object(members.mapValues(JSONShape.init))
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

    /// The union of two shapes, as two elements of one array.
    func merged(with other: JSONShape) -> JSONShape {
        switch (self, other) {
        case (.null, _): return other
        case (_, .null): return self
        case (.array(let left), .array(let right)):
            guard let left, let right else { return .array(left ?? right) }
            return .array(left.merged(with: right))
        case (.object(let left), .object(let right)):
            return .object(left.merging(right) { $0.merged(with: $1) })
        default:
            return type == other.type ? self : .mixed
        }
    }

    /// A change between a recorded shape and a live one, at a path where `[*]` stands for the
    /// elements of an array.
    enum Change: Equatable {
        case added([ReplayJSONPath.Step])
        case missing([ReplayJSONPath.Step])
        case typeChanged(
            [ReplayJSONPath.Step], from: VerificationReport.JSONType, to: VerificationReport.JSONType)
        case becameNull([ReplayJSONPath.Step])
    }

    /// The changes from `recorded` to `live`, keys in sorted order.
    static func changes(
        recorded: JSONShape, live: JSONShape, path: [ReplayJSONPath.Step] = [], into list: inout [Change]
    ) {
        switch (recorded, live) {
        case (.null, _):
            return
        case (_, .null):
            list.append(.becameNull(path))
        case (.object(let left), .object(let right)):
            for key in Set(left.keys).union(right.keys).sorted() {
                switch (left[key], right[key]) {
                case (let recordedValue?, let liveValue?):
                    changes(recorded: recordedValue, live: liveValue, path: path + [.key(key)], into: &list)
                case (.some, nil): list.append(.missing(path + [.key(key)]))
                case (nil, .some): list.append(.added(path + [.key(key)]))
                case (nil, nil): continue
                }
            }
        case (.array(let left), .array(let right)):
            guard let left, let right else { return }
            changes(recorded: left, live: right, path: path + [.anyIndex], into: &list)
        default:
            if recorded.type != live.type {
                list.append(.typeChanged(path, from: recorded.type, to: live.type))
            }
        }
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
