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
