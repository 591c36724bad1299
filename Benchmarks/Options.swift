/// The command line.
struct Options: Sendable {
    static let usage = """
        usage: ErrandBenchmarks [--quick] [--only <scenario>[,<scenario>…]] [--rounds <n>] [--json <path>]
               ErrandBenchmarks --list
               ErrandBenchmarks --write-payloads <directory>
               ErrandBenchmarks --workload <kind> <count> [--payload small|medium]
               ErrandBenchmarks --compare <old.json> [<new.json>] [--quick] [--only …]
               ErrandBenchmarks --self-test

          --quick             every scenario, briefly (for CI; the figures are not meaningful)
          --only <names>      only these scenarios (see --list)
          --rounds <n>        rounds of each judged comparison (default 7, 2 with --quick): more
                              rounds steady the medians on a busy machine, at their cost in time
          --json <path>       also write the figures, with the machine, Swift version and commit
          --list              list the scenarios and exit
          --write-payloads    write user.json and products.json, the payloads a server must serve
          --workload <kind> <count> [--payload small|medium]
                              run one side alone, print its memory report as JSON (for the memory
                              scenario and for profilers); kinds: decode, in-memory, in-memory-async,
                              in-memory-nginx, in-memory-recorded, in-memory-full-stack, cache-hit,
                              cache-hit-async, urlsession-raw, urlsession-raw-streaming,
                              urlsession-errand, urlsession-errand-async, urlsession-full-stack,
                              urlsession-flight-recorder
          --compare <old.json> [<new.json>]
                              print which figures moved beyond their spread (min–max ranges that
                              do not overlap) from one run to the other; with one file, run the
                              benchmark first (with the other options) and compare the old run to it
          --self-test         check the comparison logic on made-up reports and exit

        Scenarios that need a server read its base URL from ERRAND_BENCH_URL (scripts/bench
        starts nginx and sets it); without it they are skipped and the report says so.
        With several scenarios, each runs in a process of its own, so what one leaves behind
        does not weigh on the next; ERRAND_BENCH_ONE_PROCESS=1 runs them all in this one.
        """

    var quick = false
    var only: [String]?
    /// Rounds of each judged comparison, when not the mode's default.
    var rounds: Int?
    var jsonPath: String?
    var list = false
    var help = false
    var payloadDirectory: String?
    /// A run to compare with, and the second one, or `nil` to compare with this run.
    var compare: (old: String, new: String?)?
    var selfTest = false
    /// One workload alone (for the memory scenario's child processes, and for profiling).
    var workload: (kind: String, count: Int, payload: String)?

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
            case "--rounds":
                guard let rounds = Int(try value(for: argument)), rounds > 0 else {
                    throw BenchmarkError("--rounds needs a whole number above 0\n\n\(usage)")
                }
                options.rounds = rounds
            case "--json": options.jsonPath = try value(for: argument)
            case "--list": options.list = true
            case "--help", "-h": options.help = true
            case "--write-payloads": options.payloadDirectory = try value(for: argument)
            case "--compare":
                let old = try value(for: argument)
                var new: String?
                if let next = remaining.first, !next.hasPrefix("--") {
                    new = remaining.popFirst()
                }
                options.compare = (old, new)
            case "--self-test": options.selfTest = true
            case "--workload":
                let kind = try value(for: argument)
                guard let count = Int(try value(for: argument)), count > 0 else {
                    throw BenchmarkError("--workload needs a kind and a count\n\n\(usage)")
                }
                options.workload = (kind, count, "small")
            case "--payload":
                guard options.workload != nil else { throw BenchmarkError("--payload goes after --workload") }
                options.workload?.payload = try value(for: argument)
            default:
                throw BenchmarkError("unknown argument \"\(argument)\"\n\n\(usage)")
            }
        }
        return options
    }
}
