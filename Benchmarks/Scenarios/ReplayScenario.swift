import Errand
import ErrandReplay
import ErrandSync
import Foundation
import Synchronization

/// `ReplayDispatcher` on cassettes of 10,000 and 100,000 entries against the same work on a
/// cassette of 100: how loading and replaying grow with the size of the cassette.
///
/// The cassettes are written by the library's own HAR writer into a temporary folder, one
/// `GET /items/<n>?page=<n>` per entry with a small JSON body, made with `Recording` as the
/// dispatcher itself records them.
///
/// - **Load**: `ReplayDispatcher(cassette:…)` in replay-only mode (reading the file, decoding
///   the HAR, indexing the entries), in µs per entry. The 100-entry cassette is loaded many
///   times per sample, so every sample loads about as many entries.
/// - **Replay**: `dispatch` of requests spread over the cassette (entry `i × 7919 mod size`),
///   each recording served once, in µs per request. Dispatchers are loaded before the clock
///   starts, and a new one is loaded whenever the recordings of the last are used up, so every
///   request takes an unplayed recording at every size. The answers arrive before `dispatch`
///   returns (instant timing); each is checked against the body its entry was written with, and
///   the upstream fails the sample if it is ever called.
///
/// The "baseline" of each row is the 100-entry cassette, measured in alternation with the
/// larger one; the issue's target is replay at 100,000 entries within 1.5× of replay at 100.
struct ReplayScenario: Scenario {
    let name = "replay"
    let summary =
        "ReplayDispatcher on a cassette of 10,000 and 100,000 entries vs 100 entries: load time per "
        + "entry, replay time per request (µs per op)"

    func run(in context: BenchmarkContext) async throws -> ScenarioOutcome {
        let sizes = context.quick ? [100, 10_000] : [100, 10_000, 100_000]
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("errand-bench-replay-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        var cassettes: [ReplayCassette] = []
        for size in sizes {
            let stopwatch = Stopwatch()
            let cassette = try ReplayCassette.write(entries: size, in: folder)
            context.log(
                "replay: wrote \(Format.grouped(size)) entries (\(cassette.sizeText)) in "
                    + "\(Format.number(stopwatch.elapsed.seconds, digits: 1)) s")
            cassettes.append(cassette)
        }
        let small = cassettes[0]
        let loadedEntries = context.scaled(20_000, quick: 2_000)
        let requests = context.scaled(5_000, quick: 200)

        let baselineNote = "baseline: the same work on a cassette of 100 entries (\(small.sizeText)); "
        var comparisons: [(comparison: Comparison, note: String)] = []
        for large in cassettes.dropFirst() {
            let comparison = Comparison(
                label: "load · \(Format.grouped(large.entries)) entries (\(large.sizeText))",
                variant: "\(Format.grouped(large.entries)) entries", metric: .time, target: nil,
                baseline: Self.load(small, entriesPerSample: loadedEntries),
                errand: Self.load(large, entriesPerSample: loadedEntries))
            comparisons.append(
                (
                    comparison,
                    baselineNote
                        + "µs per entry loaded, at least \(Format.grouped(loadedEntries)) entries a sample"
                ))
        }
        for large in cassettes.dropFirst() {
            let comparison = Comparison(
                label: "replay · \(Format.grouped(large.entries)) entries",
                variant: "\(Format.grouped(large.entries)) entries", metric: .time,
                target: large.entries == 100_000 ? .ratioAtMost(1.5) : nil,
                baseline: Self.replay(ReplayFeed(small), requests: requests),
                errand: Self.replay(ReplayFeed(large), requests: requests))
            comparisons.append(
                (
                    comparison,
                    baselineNote
                        + "µs per request, \(Format.grouped(requests)) requests a sample, "
                        + "each recording served once"
                ))
        }

        var outcome = ScenarioOutcome()
        for (comparison, note) in comparisons {
            var row = try await comparison.measure(
                rounds: context.rounds, scenario: name, progress: context.log)
            row.note = note
            outcome.rows.append(row)
        }
        if context.quick {
            outcome.skipped.append("100,000 entries: full runs only (--quick stops at 10,000)")
        }
        return outcome
    }

    /// Loads `cassette` into fresh dispatchers until `entriesPerSample` entries are loaded;
    /// µs per entry.
    private static func load(_ cassette: ReplayCassette, entriesPerSample: Int) -> Contender {
        Contender(name: "\(Format.grouped(cassette.entries)) entries") {
            let loads = max(1, entriesPerSample / cassette.entries)
            var dispatchers: [ReplayDispatcher] = []
            dispatchers.reserveCapacity(loads)
            let stopwatch = Stopwatch()
            for _ in 0..<loads { dispatchers.append(cassette.dispatcher()) }
            let wall = stopwatch.elapsed.seconds * 1e6 / Double(loads * cassette.entries)
            let cpu = stopwatch.cpuMicroseconds(per: loads * cassette.entries)
            // One request each, after the clock: a cassette that failed to load fails every request.
            let check = ReplayCheck()
            for dispatcher in dispatchers {
                let entry = cassette.entries / 2
                dispatcher.dispatch(
                    request: ReplayCassette.request(entry),
                    onSuccess: { check.accept($0, ReplayCassette.body(entry)) },
                    onError: { check.fail($0) })
            }
            try check.expect(loads, upstream: cassette.upstream)
            return Sample(value: wall, cpuPerOperation: cpu)
        }
    }

    /// Replays `requests` requests, each to a recording not played before; µs per request.
    private static func replay(_ feed: ReplayFeed, requests: Int) -> Contender {
        Contender(name: "\(Format.grouped(feed.cassette.entries)) entries") {
            let batches = feed.take(requests)
            let check = ReplayCheck()
            let stopwatch = Stopwatch()
            for batch in batches {
                for (request, body) in batch.requests {
                    batch.dispatcher.dispatch(
                        request: request, onSuccess: { check.accept($0, body) }, onError: { check.fail($0) })
                }
            }
            let wall = stopwatch.elapsed.seconds * 1e6 / Double(requests)
            let cpu = stopwatch.cpuMicroseconds(per: requests)
            try check.expect(requests, upstream: feed.cassette.upstream)
            return Sample(value: wall, cpuPerOperation: cpu)
        }
    }
}

/// A cassette written for the benchmark: its file, its size, and how to open and query it.
struct ReplayCassette: Sendable {
    static let baseURL = URL(string: "https://api.example.com")!

    let url: URL
    let entries: Int
    let bytes: Int
    let upstream = FailingUpstream()

    /// `2.1 MB`.
    var sizeText: String {
        bytes < 1_000_000
            ? "\(Format.number(Double(bytes) / 1_000, digits: 1)) KB"
            : "\(Format.number(Double(bytes) / 1_000_000, digits: 1)) MB"
    }

    /// The request recorded as entry `index`.
    static func request(_ index: Int) -> RequestData {
        RequestData(path: "/items/\(index)", query: [URLQueryItem(name: "page", value: String(index))])
    }

    /// The response body recorded for entry `index`.
    static func body(_ index: Int) -> Data {
        Data(#"{"id":\#(index),"name":"Item \#(index)","price":\#(index % 1_000),"page":\#(index)}"#.utf8)
    }

    /// Writes a cassette of `entries` entries with `HAR.write(to:)`.
    static func write(entries: Int, in folder: URL) throws -> ReplayCassette {
        let started = Date(timeIntervalSince1970: 1_790_000_000)
        var recorded: [HAR.Entry] = []
        recorded.reserveCapacity(entries)
        for index in 0..<entries {
            let response = NetworkResponse(
                statusCode: 200, headers: ["Content-Type": "application/json"], body: body(index))
            let recording = try Recording(
                request: request(index), baseURL: baseURL, response: response,
                startedDateTime: started.addingTimeInterval(Double(index) / 1_000), duration: .milliseconds(3)
            )
            recorded.append(recording.entry)
        }
        let url = folder.appendingPathComponent("items-\(entries).har")
        try HAR(creator: HAR.Creator(name: "ErrandBenchmarks", version: "1"), entries: recorded).write(
            to: url)
        let bytes = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
        return ReplayCassette(url: url, entries: entries, bytes: bytes)
    }

    /// A replay-only dispatcher on this cassette, its upstream one that fails if called, and
    /// the environment left out so `ERRAND_REPLAY_MODE` cannot change the mode.
    func dispatcher() -> ReplayDispatcher {
        ReplayDispatcher(
            cassette: url, baseURL: Self.baseURL, mode: .replayOnly, upstream: upstream,
            configuration: ReplayDispatcher.Configuration { $0.environment = [:] })
    }
}

/// Hands out requests to unplayed recordings, spread over the cassette, loading a new
/// dispatcher when the last one's recordings are used up.
final class ReplayFeed: Sendable {
    /// Requests for one dispatcher, each with the body its recording answers.
    struct Batch {
        let dispatcher: ReplayDispatcher
        let requests: [(RequestData, Data)]
    }

    /// Coprime with every size here (they are products of 2 and 5), so `i × stride mod size`
    /// visits every entry once.
    private static let stride = 7_919

    let cassette: ReplayCassette
    private let state = Locked<(dispatcher: ReplayDispatcher?, next: Int)>((nil, 0))

    init(_ cassette: ReplayCassette) {
        self.cassette = cassette
    }

    /// The next `count` requests, grouped by dispatcher; dispatchers are loaded here, off the clock.
    func take(_ count: Int) -> [Batch] {
        state.withLock { state in
            var batches: [Batch] = []
            var remaining = count
            while remaining > 0 {
                if state.dispatcher == nil || state.next == cassette.entries {
                    state = (cassette.dispatcher(), 0)
                }
                guard let dispatcher = state.dispatcher else { break }
                let end = min(cassette.entries, state.next + remaining)
                let requests = (state.next..<end).map { position in
                    let entry = position * Self.stride % cassette.entries
                    return (ReplayCassette.request(entry), ReplayCassette.body(entry))
                }
                batches.append(Batch(dispatcher: dispatcher, requests: requests))
                remaining -= requests.count
                state.next = end
            }
            return batches
        }
    }
}

/// Counts the answers that carry the expected body, and keeps the first failure.
final class ReplayCheck: Sendable {
    private let state = Locked<(served: Int, failure: String?)>((0, nil))

    func accept(_ response: NetworkResponse, _ body: Data) {
        state.withLock { state in
            if response.statusCode == 200, response.body == body {
                state.served += 1
            } else if state.failure == nil {
                state.failure = "answered \(response.statusCode) with \(response.text)"
            }
        }
    }

    func fail(_ error: NetworkError) {
        state.withLock { $0.failure = $0.failure ?? "\(error)" }
    }

    /// Throws unless `count` answers arrived, all right, and the upstream was never called.
    func expect(_ count: Int, upstream: FailingUpstream) throws {
        let (served, failure) = state.withLock { ($0.served, $0.failure) }
        if let failure { throw BenchmarkError("a replayed request failed: \(failure)") }
        guard served == count else {
            throw BenchmarkError("\(served) of \(count) replayed requests answered")
        }
        guard upstream.calls == 0 else { throw BenchmarkError("replay-only mode called the upstream") }
    }
}

/// An upstream that must never be reached: it counts calls and fails each one.
final class FailingUpstream: NetworkDispatcher {
    private let count = Atomic<Int>(0)

    var calls: Int { count.load(ordering: .relaxed) }

    @discardableResult
    func dispatch(
        request: RequestData, onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        count.add(1, ordering: .relaxed)
        onError(
            NetworkError(code: .transport, message: "The benchmark's upstream was called.", request: request))
        return CancellableAction.none
    }
}
