import Errand
import Foundation

/// A JSON value compared by meaning: key order, spacing and number spelling (`1`, `1.0`,
/// `1e0`) do not matter.
///
/// The module's one JSON value type: ``JSONReader`` builds it (objects as dictionaries, numbers
/// as `Decimal`s, which is what comparing by meaning needs), the replay matcher compares it and
/// the cassette verifier compares its shape (`ReplayJSON+Shape`).
enum ReplayJSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Decimal)
    case string(String)
    case array([ReplayJSON])
    case object([String: ReplayJSON])

    /// The value of a JSON body, or `nil` when the bytes are not JSON.
    static func parse(_ data: Data) -> ReplayJSON? {
        try? JSONReader.read(data).get()
    }

    /// This value without the parts that `paths` name.
    func removing(_ paths: [ReplayJSONPath]) -> ReplayJSON {
        paths.reduce(self) { value, path in value.removing(path.steps[...]) }
    }

    private func removing(_ steps: ArraySlice<ReplayJSONPath.Step>) -> ReplayJSON {
        guard let step = steps.first else { return self }
        let rest = steps.dropFirst()
        switch (self, step) {
        case (.object(var members), .key(let key)):
            if rest.isEmpty {
                members[key] = nil
            } else if let member = members[key] {
                members[key] = member.removing(rest)
            }
            return .object(members)
        case (.object(let members), .anyKey):
            return rest.isEmpty ? .object([:]) : .object(members.mapValues { $0.removing(rest) })
        case (.array(var elements), .index(let index)) where elements.indices.contains(index):
            if rest.isEmpty {
                elements[index] = .null
            } else {
                elements[index] = elements[index].removing(rest)
            }
            return .array(elements)
        case (.array(let elements), .anyIndex):
            return rest.isEmpty
                ? .array(elements.map { _ in .null }) : .array(elements.map { $0.removing(rest) })
        default:
            return self
        }
    }

    /// A canonical spelling: keys sorted, no spaces, numbers in their shortest form.
    var canonical: String {
        switch self {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .number(let number): number.description
        case .string(let text): Self.quoted(text)
        case .array(let elements): "[" + elements.map(\.canonical).joined(separator: ",") + "]"
        case .object(let members):
            "{"
                + members.keys.sorted().map { Self.quoted($0) + ":" + (members[$0]?.canonical ?? "null") }
                .joined(separator: ",") + "}"
        }
    }

    /// A short form for a message: scalars as written, containers by size.
    var summary: String {
        switch self {
        case .array(let elements): "an array of \(elements.count)"
        case .object(let members): "an object of \(members.count) keys"
        default: canonical.count > 60 ? String(canonical.prefix(57)) + "…" : canonical
        }
    }

    /// Where two values differ, as `body key `user.id`: 1 recorded, 2 sent`, up to `limit`.
    static func differences(
        recorded: ReplayJSON, sent: ReplayJSON, path: [ReplayJSONPath.Step] = [], into list: inout [String],
        limit: Int
    ) {
        guard list.count < limit, recorded != sent else { return }
        let name = path.isEmpty ? "body" : "body key `\(ReplayJSONPath.format(path))`"
        switch (recorded, sent) {
        case (.object(let left), .object(let right)):
            for key in Set(left.keys).union(right.keys).sorted() {
                switch (left[key], right[key]) {
                case (let recordedValue?, let sentValue?):
                    differences(
                        recorded: recordedValue, sent: sentValue, path: path + [.key(key)], into: &list,
                        limit: limit)
                case (let recordedValue?, nil):
                    let keyName = ReplayJSONPath.format(path + [.key(key)])
                    list.append(
                        "body key `\(keyName)`: \(recordedValue.summary) recorded, missing from the request")
                case (nil, let sentValue?):
                    let keyName = ReplayJSONPath.format(path + [.key(key)])
                    list.append("body key `\(keyName)`: not recorded, \(sentValue.summary) sent")
                case (nil, nil):
                    continue
                }
                if list.count >= limit { return }
            }
        case (.array(let left), .array(let right)):
            if left.count != right.count {
                list.append("\(name): \(left.count) elements recorded, \(right.count) sent")
            }
            for index in 0..<min(left.count, right.count) where list.count < limit {
                differences(
                    recorded: left[index], sent: right[index], path: path + [.index(index)], into: &list,
                    limit: limit)
            }
        default:
            list.append("\(name): \(recorded.summary) recorded, \(sent.summary) sent")
        }
    }

    private static func quoted(_ text: String) -> String {
        "\"" + JSONString.escaped(text, shortControls: false) + "\""
    }
}

/// A path into a JSON body, for the ignore list and for naming a differing key.
///
/// Written as keys separated by dots, with `[n]` for an array element: `user.id`,
/// `items[0].price`. `*` stands for any key and `[*]` for any element: `items[*].nonce`,
/// `*.updatedAt`. A leading `$.` is accepted and ignored, so JSONPath habits work.
struct ReplayJSONPath: Hashable, Sendable, CustomStringConvertible {
    /// One step down into a value.
    enum Step: Hashable, Sendable {
        /// A key of an object.
        case key(String)
        /// Any key of an object.
        case anyKey
        /// An element of an array.
        case index(Int)
        /// Any element of an array.
        case anyIndex
    }

    /// The steps, from the top of the body down.
    let steps: [Step]
    /// The path as it was written.
    let description: String

    /// Parses a path; an empty text is the whole body.
    init(_ text: String) {
        description = text
        var rest = Substring(text)
        if rest.hasPrefix("$.") {
            rest = rest.dropFirst(2)
        } else if rest.hasPrefix("$") {
            rest = rest.dropFirst()
        }
        var steps: [Step] = []
        var key = ""
        var index = rest.startIndex
        func flush() {
            if !key.isEmpty { steps.append(key == "*" ? .anyKey : .key(key)) }
            key = ""
        }
        while index < rest.endIndex {
            let character = rest[index]
            if character == ".", !key.isEmpty || steps.last != nil {
                flush()
            } else if character == "[", let close = rest[index...].firstIndex(of: "]") {
                flush()
                let inside = rest[rest.index(after: index)..<close]
                if inside == "*" {
                    steps.append(.anyIndex)
                } else if let number = Int(inside) {
                    steps.append(.index(number))
                } else {
                    steps.append(.key(String(inside.trimmingCharacters(in: ["'", "\""]))))
                }
                index = close
            } else {
                key.append(character)
            }
            index = rest.index(after: index)
        }
        flush()
        self.steps = steps
    }

    /// The field name when the path is one plain key: how it applies to a form body.
    var singleKey: String? {
        guard steps.count == 1, case .key(let name) = steps[0] else { return nil }
        return name
    }

    /// Formats a concrete path such as `user.id` or `items[2]`.
    static func format(_ steps: [Step]) -> String {
        var text = ""
        for step in steps {
            switch step {
            case .key(let key): text += text.isEmpty ? key : "." + key
            case .anyKey: text += text.isEmpty ? "*" : ".*"
            case .index(let index): text += "[\(index)]"
            case .anyIndex: text += "[*]"
            }
        }
        return text
    }
}
