import Errand
import ErrandReplay
import Foundation

/// One side of a comparison run alone in a process of its own: `--workload <kind> <count>`.
///
/// The memory scenario starts one such process per sample; a profiler can run one too, for
/// example `valgrind --tool=callgrind ErrandBenchmarks --workload in-memory 2000`, and compare
/// the instruction counts of a baseline kind and its Errand kind.
final class SoloWorkload: Sendable {
    enum Kind: String, Sendable, CaseIterable {
        /// `JSONDecoder` alone.
        case decode
        /// Callback `execute` on an `InMemoryDispatcher`.
        case inMemory = "in-memory"
        /// Async `execute` on an `InMemoryDispatcher`.
        case inMemoryAsync = "in-memory-async"
        /// Callback `execute` on an `InMemoryDispatcher` answering with nginx's headers: beside
        /// `in-memory-recorded`, what the flight recorder costs without the network's noise.
        case inMemoryNginx = "in-memory-nginx"
        /// `in-memory-nginx` with a flight recorder around the dispatcher.
        case inMemoryRecorded = "in-memory-recorded"
        /// `in-memory-nginx` wrapped in the full-stack scenario's policies: beside
        /// `in-memory-nginx`, what the policies cost per request without the network's noise.
        case inMemoryFullStack = "in-memory-full-stack"
        /// Callback `execute` answered by a fresh response in a `MemoryCacheStore`.
        case cacheHit = "cache-hit"
        /// Async `execute` answered by a fresh response in a `MemoryCacheStore`.
        case cacheHitAsync = "cache-hit-async"
        /// Raw `URLSession` + `JSONDecoder`, 8 in flight (see ``SoloWorkload/inFlight``).
        case rawURLSession = "urlsession-raw"
        /// Raw `URLSession` with delegate-driven tasks + `JSONDecoder`, 8 in flight: beside
        /// `urlsession-raw`, what FoundationNetworking's streaming path costs by itself.
        case rawStreamingURLSession = "urlsession-raw-streaming"
        /// Callback `execute` on a `URLSessionDispatcher`, 8 in flight.
        case errandURLSession = "urlsession-errand"
        /// Async `execute` on a `URLSessionDispatcher`, 8 in flight: beside `urlsession-errand`,
        /// what the bridge to async/await costs when the answer comes from the network.
        case errandURLSessionAsync = "urlsession-errand-async"
        /// Callback `execute` on the full-stack scenario's policies around a `URLSessionDispatcher`,
        /// 8 in flight: beside `urlsession-errand`, a profile of it shows what the policies cost.
        case errandFullStack = "urlsession-full-stack"
        /// The full stack with a flight recorder outermost, as the flight-recorder scenario has it.
        case errandFlightRecorder = "urlsession-flight-recorder"
    }

    /// Requests in flight for the `urlsession-*` kinds: 8, or `ERRAND_WORKLOAD_IN_FLIGHT`.
    static let inFlight = max(
        1, Int(ProcessInfo.processInfo.environment["ERRAND_WORKLOAD_IN_FLIGHT"] ?? "") ?? 8)

    /// The dispatcher of an in-memory kind, answering `Payload.path` with `bytes`.
    ///
    /// For cache-hit, the warm-up's first request stores the response; every later one hits.
    private static func inMemoryDispatcher<Payload: BenchmarkPayload>(
        _ kind: Kind, serving bytes: Data, for type: Payload.Type
    ) -> any NetworkDispatcher {
        switch kind {
        case .cacheHit: return CacheHitScenario.cache(serving: bytes, for: type)
        case .inMemoryNginx, .inMemoryRecorded, .inMemoryFullStack:
            let stub = InMemoryDispatcher(recordsRequests: false)
            stub.stub(
                .get, Payload.path, response: .status(200, headers: nginxHeaders(bytes.count), body: bytes))
            if kind == .inMemoryFullStack { return FullStackScenario.stack(over: stub) }
            guard kind == .inMemoryRecorded else { return stub }
            let configuration = FlightRecorder.Configuration(
                maximumEntries: 500, maximumBytes: 8 << 20, baseURL: URL(string: "http://127.0.0.1:8080"))
            return stub.flightRecording(into: FlightRecorder(configuration))
        default: return InMemoryScenario.dispatcher(serving: bytes, at: Payload.path)
        }
    }

    /// The headers nginx answers a static file with.
    static func nginxHeaders(_ length: Int) -> HTTPHeaders {
        [
            "Server": "nginx/1.22.1", "Date": "Wed, 02 Dec 2026 03:00:00 GMT",
            "Content-Type": "application/json", "Content-Length": String(length),
            "Last-Modified": "Wed, 02 Dec 2026 02:00:00 GMT", "Connection": "keep-alive",
            "ETag": "\"692e4a20-19b\"", "Accept-Ranges": "bytes",
        ]
    }
    /// Operations run before the peak is reset, so set-up costs (connections, caches) are paid.
    static let warmUpCount = 200

    private let perform: @Sendable (Int) async throws -> Void

    private init(perform: @escaping @Sendable (Int) async throws -> Void) {
        self.perform = perform
    }

    /// The workload `kind` on `Payload`, set up and ready to run.
    static func make<Payload: BenchmarkPayload>(
        _ kind: Kind, _ type: Payload.Type, context: BenchmarkContext
    ) throws -> SoloWorkload {
        let bytes = context.payloads.bytes(for: type)
        let each = try context.payloads.checksum(of: type)
        let request = GetPayload<Payload>()
        switch kind {
        case .decode:
            let decoder = JSONDecoder()
            return SoloWorkload { count in
                var sum = 0
                for _ in 0..<count { sum &+= try decoder.decode(Payload.self, from: bytes).checksum }
                try check(sum, each * count)
            }
        case .inMemory, .cacheHit, .inMemoryNginx, .inMemoryRecorded, .inMemoryFullStack:
            let dispatcher = inMemoryDispatcher(kind, serving: bytes, for: type)
            return SoloWorkload { count in
                let tally = Tally()
                for _ in 0..<count {
                    request.execute(
                        dispatcher: dispatcher, callbackQueue: nil, onSuccess: { tally.add($0.checksum) },
                        onError: { tally.fail($0) })
                }
                // A policy may answer the first requests later, from a task (auth reading its
                // storage): wait for them, for a while.
                let giveUp = ContinuousClock.now + .seconds(10)
                while try tally.sum() < each * count, ContinuousClock.now < giveUp { await Task.yield() }
                try check(try tally.sum(), each * count)
            }
        case .inMemoryAsync, .cacheHitAsync:
            let dispatcher: any NetworkDispatcher =
                kind == .cacheHitAsync
                ? CacheHitScenario.cache(serving: bytes, for: type)
                : InMemoryScenario.dispatcher(serving: bytes, at: Payload.path)
            return SoloWorkload { count in
                var sum = 0
                for _ in 0..<count { sum &+= try await request.execute(dispatcher: dispatcher).checksum }
                try check(sum, each * count)
            }
        case .rawURLSession:
            let raw = RawClient(baseURL: try serverURL(context))
            let url = raw.url(of: type)
            return SoloWorkload { count in
                let run = try await InFlight.run(total: count, inFlight: inFlight) { done in
                    raw.fetch(Payload.self, from: url, done: done)
                }
                try check(run.checksum, each * count)
            }
        case .rawStreamingURLSession:
            let raw = RawStreamingClient()
            let url = try serverURL(context).appending(path: Payload.fileName)
            return SoloWorkload { count in
                let run = try await InFlight.run(total: count, inFlight: inFlight) { done in
                    raw.fetch(Payload.self, from: url, done: done)
                }
                try check(run.checksum, each * count)
            }
        case .errandURLSessionAsync:
            let dispatcher = URLSessionDispatcher(baseURL: try serverURL(context))
            return SoloWorkload { count in
                let run = try await InFlight.run(total: count, inFlight: inFlight) {
                    try await request.execute(dispatcher: dispatcher).checksum
                }
                try check(run.checksum, each * count)
            }
        case .errandURLSession, .errandFullStack, .errandFlightRecorder:
            let serverURL = try serverURL(context)
            let transport = URLSessionDispatcher(baseURL: serverURL)
            let dispatcher: any NetworkDispatcher
            switch kind {
            case .errandFullStack: dispatcher = FullStackScenario.stack(over: transport)
            case .errandFlightRecorder:
                let recorder = FlightRecorder(
                    FlightRecorder.Configuration(
                        maximumEntries: 500, maximumBytes: 8 << 20, baseURL: serverURL))
                dispatcher = FullStackScenario.stack(over: transport).flightRecording(into: recorder)
            default: dispatcher = transport
            }
            return SoloWorkload { count in
                let run = try await InFlight.run(total: count, inFlight: inFlight) { done in
                    request.execute(
                        dispatcher: dispatcher, callbackQueue: nil,
                        onSuccess: { done(.success($0.checksum)) }, onError: { done(.failure($0)) })
                }
                try check(run.checksum, each * count)
            }
        }
    }

    /// The process's whole life: set up, warm up, reset the peak, work, report on stdout as JSON.
    static func runAlone(kind name: String, count: Int, payload: String, context: BenchmarkContext)
        async throws
    {
        guard let kind = Kind(rawValue: name) else {
            throw BenchmarkError(
                "no workload \"\(name)\"; known: \(Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let workload: SoloWorkload
        switch payload {
        case "small": workload = try make(kind, User.self, context: context)
        case "medium": workload = try make(kind, ProductList.self, context: context)
        default: throw BenchmarkError("the payload is small or medium, not \"\(payload)\"")
        }
        try await workload.perform(warmUpCount)
        let before = try ProcessMemory.read()
        let reset = ProcessMemory.resetPeak()
        try await workload.perform(count)
        let after = try ProcessMemory.read()
        let report = MemoryReport(
            residentBefore: before.resident, peakAfter: max(after.peak, after.resident),
            residentAfter: after.resident, peakWasReset: reset)
        FileHandle.standardOutput.write(try JSONEncoder().encode(report))
    }

    private static func serverURL(_ context: BenchmarkContext) throws -> URL {
        guard let url = context.serverURL else {
            throw BenchmarkError(context.serverUnavailableReason ?? "no server")
        }
        return url
    }

    private static func check(_ sum: Int, _ expected: Int) throws {
        guard sum == expected else {
            throw BenchmarkError("the decoded values add up to \(sum), not \(expected)")
        }
    }
}
