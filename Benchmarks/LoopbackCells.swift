import Errand
import Foundation

/// The loopback cells the transport and full-stack scenarios share: a raw client against an
/// Errand dispatcher, at 1, 8 and 64 requests in flight, small and medium payload, through the
/// callback and the async `execute`.
///
/// Each cell keeps that many requests in flight until a fixed number have completed, and
/// reports requests per second and CPU time per request. The callback `execute` is called back
/// on the completing thread, as the baseline is.
struct LoopbackCells: Sendable {
    static let inFlightLevels = [1, 8, 64]

    /// The scenario the rows belong to.
    let scenario: String
    let target: Target
    let raw: RawClient
    let dispatcher: any NetworkDispatcher
    /// A stack to measure `dispatcher` against instead of the raw client, each variant against
    /// the same variant, so the ratio is the cost of what `dispatcher` adds to it.
    var baselineStack: (name: String, dispatcher: any NetworkDispatcher)?
    /// Baselines as apps write them without a library (`URLSession.shared`, the `.default`
    /// configuration), each measured against the callback `execute` in fewer rounds, to be read
    /// beside the same-configuration ratio.
    var userBaselines: [(name: String, client: RawClient)] = []
    /// The target of the medium payload with 8 and 64 in flight, where decoding in parallel
    /// shows (when the benchmark may use more than one core); `nil` keeps ``target``.
    var parallelDecodingTarget: Target?

    /// Every cell, small payload first.
    func measure(in context: BenchmarkContext) async throws -> [ResultRow] {
        var rows: [ResultRow] = []
        let payloads: [any BenchmarkPayload.Type] = [User.self, ProductList.self]
        for payload in payloads {
            for inFlight in Self.inFlightLevels {
                rows += try await cell(payload, inFlight: inFlight, context: context)
            }
        }
        return rows
    }

    private func cell<Payload: BenchmarkPayload>(
        _ type: Payload.Type, inFlight: Int, context: BenchmarkContext
    ) async throws -> [ResultRow] {
        let total = context.scaled(type == User.self ? 600 : 300, quick: 40)
        let expected = try context.payloads.checksum(of: type) * total
        let (raw, dispatcher) = (raw, dispatcher)
        let url = raw.url(of: type)
        let request = GetPayload<Payload>()

        func fetching(_ name: String, with client: RawClient) -> Contender {
            Contender(name: name) {
                let stopwatch = Stopwatch()
                let run = try await InFlight.run(total: total, inFlight: inFlight) { done in
                    client.fetch(Payload.self, from: url, done: done)
                }
                return try Self.sample(run, stopwatch, total: total, expected: expected)
            }
        }
        let rawBaseline = fetching("URLSession + JSONDecoder", with: raw)
        func callback(_ name: String, through dispatcher: any NetworkDispatcher) -> Contender {
            Contender(name: name) {
                let stopwatch = Stopwatch()
                let run = try await InFlight.run(total: total, inFlight: inFlight) { done in
                    request.execute(
                        dispatcher: dispatcher, callbackQueue: nil,
                        onSuccess: { done(.success($0.checksum)) }, onError: { done(.failure($0)) })
                }
                return try Self.sample(run, stopwatch, total: total, expected: expected)
            }
        }
        func async(_ name: String, through dispatcher: any NetworkDispatcher) -> Contender {
            Contender(name: name) {
                let stopwatch = Stopwatch()
                let run = try await InFlight.run(total: total, inFlight: inFlight) {
                    try await request.execute(dispatcher: dispatcher).checksum
                }
                return try Self.sample(run, stopwatch, total: total, expected: expected)
            }
        }
        let contenders: [(errand: Contender, baseline: Contender)] = [
            (
                callback("execute (callback)", through: dispatcher),
                baselineStack.map { callback("\($0.name), execute (callback)", through: $0.dispatcher) }
                    ?? rawBaseline
            ),
            (
                async("execute (async)", through: dispatcher),
                baselineStack.map { async("\($0.name), execute (async)", through: $0.dispatcher) }
                    ?? rawBaseline
            ),
        ]

        let label = "\(Payload.label) · \(inFlight) in flight"
        let decodesInParallel = type != User.self && inFlight > 1
        let cellTarget = decodesInParallel ? (parallelDecodingTarget ?? target) : target
        var rows: [ResultRow] = []
        for (errand, baseline) in contenders {
            let comparison = Comparison(
                label: label, variant: errand.name, metric: .throughput, target: cellTarget,
                baseline: baseline, errand: errand)
            rows.append(
                try await comparison.measure(
                    rounds: context.rounds, scenario: scenario, progress: context.log))
        }
        for user in userBaselines {
            let comparison = Comparison(
                label: label, variant: "execute (callback)", metric: .throughput, target: nil,
                baseline: fetching(user.name, with: user.client),
                errand: callback("execute (callback)", through: dispatcher))
            rows.append(
                try await comparison.measure(
                    rounds: context.secondaryRounds, scenario: scenario, progress: context.log))
        }
        return rows
    }

    /// Requests per second, and CPU time per request, of a run whose answers are checked.
    private static func sample(_ run: InFlight.Run, _ stopwatch: Stopwatch, total: Int, expected: Int)
        throws -> Sample
    {
        let cpu = stopwatch.cpuMicroseconds(per: total)
        guard run.checksum == expected else {
            throw BenchmarkError("the decoded answers add up to \(run.checksum), not \(expected)")
        }
        return Sample(value: run.throughput(of: total), cpuPerOperation: cpu)
    }

    /// Fails unless the server serves byte for byte the payloads this process generated.
    static func checkServer(_ raw: RawClient, serves payloads: Payloads) async throws {
        let files: [(any BenchmarkPayload.Type, Data)] = [
            (User.self, payloads.small), (ProductList.self, payloads.medium),
        ]
        for (type, expected) in files {
            let url = raw.url(of: type)
            let served = try await raw.bytes(at: url)
            guard served == expected else {
                throw BenchmarkError(
                    "\(url) serves \(served.count) bytes that differ from the generated payload "
                        + "(\(expected.count) bytes); write them with --write-payloads")
            }
        }
    }
}
