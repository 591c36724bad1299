/// The command line.
struct Options: Sendable {
    static let usage = """
        usage: ErrandBenchmarks [--quick] [--only <scenario>[,<scenario>…]] [--json <path>]
               ErrandBenchmarks --list
               ErrandBenchmarks --write-payloads <directory>

          --quick             every scenario, briefly (for CI; the figures are not meaningful)
          --only <names>      only these scenarios (see --list)
          --json <path>       also write the figures, with the machine, Swift version and commit
          --list              list the scenarios and exit
          --write-payloads    write user.json and products.json, the payloads a server must serve

        Scenarios that need a server read its base URL from ERRAND_BENCH_URL (scripts/bench
        starts nginx and sets it); without it they are skipped and the report says so.
        """

    var quick = false
    var only: [String]?
    var jsonPath: String?
    var list = false
    var help = false
    var payloadDirectory: String?
    /// Set in a child process that the memory scenario starts: the workload and its count.
    var memoryChild: (workload: String, count: Int)?

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var remaining = arguments[...]
        func value(for flag: String) throws -> String {
            guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                throw BenchmarkError("\(flag) needs a value\n\n\(usage)")
            }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--quick": options.quick = true
            case "--only":
                let names = try value(for: argument).split(separator: ",").map(String.init)
                options.only = (options.only ?? []) + names
            case "--json": options.jsonPath = try value(for: argument)
            case "--list": options.list = true
            case "--help", "-h": options.help = true
            case "--write-payloads": options.payloadDirectory = try value(for: argument)
            case "--memory-child":
                let workload = try value(for: argument)
                guard let count = Int(try value(for: argument)) else {
                    throw BenchmarkError("--memory-child needs a workload and a count")
                }
                options.memoryChild = (workload, count)
            default:
                throw BenchmarkError("unknown argument \"\(argument)\"\n\n\(usage)")
            }
        }
        return options
    }
}
