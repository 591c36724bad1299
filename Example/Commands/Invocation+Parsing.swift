import Foundation

extension Invocation {
    /// Parses the arguments after the program name.
    ///
    /// - Throws: ``ExampleFailure`` with status 2 and the usage for anything it cannot read.
    init(parsing arguments: [String]) throws {
        var words: [String] = []
        var rest = arguments[...]
        while let word = rest.popFirst() {
            switch word {
            case "--live":
                let text = try Self.value(of: word, in: &rest, example: "--live http://127.0.0.1:8080")
                guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https",
                    url.host != nil
                else { throw ExampleFailure.usage("error: --live needs an http(s) URL, got '\(text)'") }
                liveURL = url
            case "--recordings":
                let path = try Self.value(of: word, in: &rest, example: "--recordings /tmp/recordings")
                recordings = URL(fileURLWithPath: path, isDirectory: true)
            case "--staging": staging = true
            case "--record": record = true
            case "--verbose", "-v": verbose = true
            case "--help", "-h": words.append("help")
            default: words.append(word)
            }
        }
        if record, liveURL == nil {
            throw ExampleFailure.usage(
                "error: --record needs --live <url>: it records what that server answers")
        }
        if staging, liveURL != nil {
            throw ExampleFailure.usage("error: choose --staging or --live, not both")
        }
        command = try Self.command(words)
    }

    private static func command(_ words: [String]) throws -> Command {
        guard let name = words.first else { return .tour }
        var rest = words.dropFirst()
        let command: Command
        switch name {
        case "tour": command = .tour
        case "help": command = .help
        case "products":
            let search = try option("--search", in: &rest, example: "products --search phone")
            let page = try option("--page", in: &rest, example: "products --page 2").map {
                try number($0, for: "--page", example: "products --page 2", minimum: 1)
            }
            command = .products(search: search, page: page ?? 1)
        case "product": command = .product(id: try id(&rest, for: "product"))
        case "add":
            let example = "add --title \"Errand mug\" --price 12.5"
            guard let title = try option("--title", in: &rest, example: example) else {
                throw ExampleFailure.usage("error: `add` needs --title, e.g. `\(example)`")
            }
            guard let price = try option("--price", in: &rest, example: example) else {
                throw ExampleFailure.usage("error: `add` needs --price, e.g. `\(example)`")
            }
            command = .add(ProductDraft(title: title, price: try amount(price), category: nil))
        case "update":
            let id = try id(&rest, for: "update")
            let example = "update \(id) --title \"New title\""
            let title = try option("--title", in: &rest, example: example)
            let price = try option("--price", in: &rest, example: example).map(amount)
            guard title != nil || price != nil else {
                throw ExampleFailure.usage("error: `update` needs --title or --price, e.g. `\(example)`")
            }
            command = .update(id: id, ProductDraft(title: title, price: price, category: nil))
        case "delete": command = .delete(id: try id(&rest, for: "delete"))
        case "login":
            guard rest.count >= 2, let user = rest.popFirst(), let password = rest.popFirst() else {
                throw ExampleFailure.usage(
                    "error: `login` needs a user and a password, e.g. `login emilys emilyspass`")
            }
            command = .login(user: user, password: password)
        case "me": command = .me
        case "logout": command = .logout
        default:
            throw ExampleFailure.usage("error: unknown command '\(name)'")
        }
        if let extra = rest.first {
            throw ExampleFailure.usage("error: unexpected argument '\(extra)' after `\(name)`")
        }
        return command
    }

    private static func value(of option: String, in rest: inout ArraySlice<String>, example: String) throws
        -> String
    {
        guard let value = rest.popFirst(), !value.hasPrefix("--") else {
            throw ExampleFailure.usage("error: \(option) needs a value, e.g. `\(example)`")
        }
        return value
    }

    /// Removes `--name value` from `rest`, wherever it is, and returns the value.
    private static func option(_ name: String, in rest: inout ArraySlice<String>, example: String) throws
        -> String?
    {
        guard let index = rest.firstIndex(of: name) else { return nil }
        var tail = rest[(index + 1)...]
        let value = try value(of: name, in: &tail, example: example)
        rest = rest[..<index] + tail
        return value
    }

    private static func id(_ rest: inout ArraySlice<String>, for command: String) throws -> Int {
        guard let text = rest.popFirst() else {
            throw ExampleFailure.usage("error: `\(command)` needs a product id, e.g. `\(command) 1`")
        }
        return try number(text, for: command, example: "\(command) 1", minimum: 1)
    }

    private static func number(_ text: String, for name: String, example: String, minimum: Int) throws -> Int
    {
        guard let value = Int(text), value >= minimum else {
            throw ExampleFailure.usage(
                "error: \(name) needs a whole number from \(minimum), got '\(text)'; e.g. `\(example)`")
        }
        return value
    }

    private static func amount(_ text: String) throws -> Decimal {
        guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), value >= 0 else {
            throw ExampleFailure.usage("error: --price needs an amount such as 12.5, got '\(text)'")
        }
        return value
    }
}
