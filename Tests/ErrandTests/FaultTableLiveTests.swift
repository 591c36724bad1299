import Errand
import ErrandSync
import ErrandTestSupport
import Foundation
import Testing

/// Every transport fault of `Tests/Support/fault_server.py`, live: each ends in one typed
/// `NetworkError` whose description says what happened, through exactly one callback, within the
/// request's deadline, with memory bounded.
///
/// Serialized so that each case's peak resident set is mostly its own (other suites may run
/// beside it, so only the 50 MB bodies are held to a bound). Each case adds its row to
/// `.build/fault-table.md` (fault, error code, time to fail, peak memory growth).
@Suite(.serialized, .enabled(if: LiveServer.faultAvailable, LiveServer.skipReason))
struct FaultTableLiveTests {
    /// How a fault's body is read: raw, as text, or as JSON.
    enum Reading: String, Sendable {
        case data, string, json
    }

    /// One row of the table: what the server does, how the client reads it, the code it gets.
    struct Fault: Sendable, CustomTestStringConvertible {
        let name: String
        let request: RequestData
        let reading: Reading
        let expected: NetworkError.Code
        /// Words the error's description must contain, so it says what happened.
        let saying: String

        init(
            _ name: String, _ request: RequestData, as reading: Reading = .data,
            _ expected: NetworkError.Code, saying: String
        ) {
            self.name = name
            self.request = request
            self.reading = reading
            self.expected = expected
            self.saying = saying
        }

        var testDescription: String { name }
    }

    /// The deadline of the faults that never end by themselves.
    static let shortDeadline: TimeInterval = 1.5
    /// The deadline of every other fault: far above what any of them takes, even while the rest
    /// of the suite keeps both cores busy (a fault that ends by itself in milliseconds has taken
    /// 16 s to be scheduled then).
    static let deadline: TimeInterval = 60

    static let faults: [Fault] = [
        Fault("reset before the response", .get("/reset-before"), .transport, saying: "failed"),
        Fault("reset halfway through the body", .get("/reset"), .transport, saying: "failed"),
        Fault(
            "Content-Length larger than the body, then close", .get("/truncated"), .transport,
            saying: "failed"),
        Fault("garbage status line", .get("/garbage-status"), .transport, saying: "failed"),
        Fault(
            "headers that never end", .get("/endless-headers").timeout(shortDeadline), .timedOut,
            saying: "deadline"),
        Fault("silence", .get("/silence").timeout(shortDeadline), .timedOut, saying: "deadline"),
        Fault(
            "body dripped slower than the deadline",
            .get("/drip").query("bytes", "40").query("interval", "0.25").timeout(shortDeadline), .timedOut,
            saying: "deadline"),
        Fault(
            "50 MB body (Content-Length)", .get("/huge").query("mb", "50"), .responseTooLarge,
            saying: "Content-Length"),
        Fault(
            "50 MB body (chunked, no length)", .get("/huge").query("mb", "50").query("chunked", "1"),
            .responseTooLarge, saying: "still arriving"),
        Fault("invalid JSON", .get("/invalid-json"), as: .json, .decoding, saying: "decod"),
        Fault("invalid UTF-8 read as String", .get("/invalid-utf8"), as: .string, .decoding, saying: "UTF-8"),
        Fault("redirect loop", .get("/redirect-loop"), .transport, saying: "redirect"),
        Fault(
            "401 with WWW-Authenticate: Basic", .get("/basic-challenge"), .unacceptableStatus, saying: "401"),
        Fault("chunked body with a broken chunk", .get("/broken-chunk"), .transport, saying: "failed"),
        Fault("accepts and closes at once", .get("/close"), .transport, saying: "failed"),
    ]

    let dispatcher: URLSessionDispatcher

    init() throws {
        dispatcher = URLSessionDispatcher(
            baseURL: try LiveServer.require(LiveServer.fault, "ERRAND_FAULT_URL"), timeout: Self.deadline)
    }

    @Test(arguments: faults)
    func eachFaultFailsTypedOnceWithBoundedMemory(_ fault: Fault) async throws {
        // Given a bound on memory for the bodies larger than the dispatcher's limit
        let isLarge = fault.expected == .responseTooLarge
        var peakGrowth = Int.max
        var elapsed = Duration.zero
        var code = fault.expected

        // When the fault is fetched (a large one up to three times: other suites running beside
        // this one only ever add to the process's peak, so the smallest growth is the truest)
        for _ in 0..<(isLarge ? 3 : 1) where peakGrowth >= Self.memoryBound {
            let before = ProcessMemory.resetPeak()
            let clock = ContinuousClock()
            let start = clock.now
            let (error, deliveries) = try await fetch(fault)
            elapsed = clock.now - start
            peakGrowth = min(peakGrowth, ProcessMemory.peak() - before)
            code = error.code

            // Then one typed error says what happened (a hang would be the deadline's `timedOut`)
            #expect(error.code == fault.expected, "\(error)")
            #expect(error.description.localizedCaseInsensitiveContains(fault.saying), "\(error)")
            #expect(deliveries == 1)
        }

        // And a body over the limit was never held whole
        if isLarge {
            #expect(peakGrowth < Self.memoryBound, "peak resident set grew by \(peakGrowth) bytes")
        }
        FaultTable.record(
            fault: fault, code: code, elapsed: elapsed, peakGrowth: peakGrowth,
            order: Self.faults.firstIndex { $0.name == fault.name } ?? 0)
    }

    /// Well under the 50 MiB body: the limit (16 MiB) and the chunks in flight when it was crossed.
    static let memoryBound = 40 * 1_048_576

    /// Executes the fault as its reading says and returns its error and the callbacks made,
    /// counted after a later request on the same dispatcher has completed.
    private func fetch(_ fault: Fault) async throws -> (NetworkError, Int) {
        let error: NetworkError
        let count: @Sendable () -> Int
        switch fault.reading {
        case .data:
            let probe = CallbackProbe<Data>()
            Request<Data>(fault.request).execute(
                dispatcher: dispatcher, callbackQueue: nil, onSuccess: probe.onSuccess, onError: probe.onError
            )
            error = try await probe.failure()
            count = { probe.deliveries.count }
        case .string:
            let probe = CallbackProbe<String>()
            Request<String>(fault.request).execute(
                dispatcher: dispatcher, callbackQueue: nil, onSuccess: probe.onSuccess, onError: probe.onError
            )
            error = try await probe.failure()
            count = { probe.deliveries.count }
        case .json:
            let probe = CallbackProbe<Reply>()
            Request<Reply>(fault.request).execute(
                dispatcher: dispatcher, callbackQueue: nil, onSuccess: probe.onSuccess, onError: probe.onError
            )
            error = try await probe.failure()
            count = { probe.deliveries.count }
        }
        // A later request through the same session: any second callback of the first would
        // have had its chance by the time this one is back.
        let barrier = try await Request<Reply>(.get("/json")).execute(dispatcher: dispatcher)
        #expect(barrier.ok)
        return (error, count())
    }

    struct Reply: Decodable, Sendable {
        let ok: Bool
    }
}

/// The process's resident set, from `/proc/self/status` (Linux); zero elsewhere.
enum ProcessMemory {
    /// Resets the peak resident set to the current one and returns the current one, in bytes.
    static func resetPeak() -> Int {
        // Writing 5 to clear_refs resets VmHWM (Linux 4.0 and later).
        try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
        return field("VmRSS")
    }

    /// The peak resident set since the last reset, in bytes.
    static func peak() -> Int { field("VmHWM") }

    private static func field(_ name: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            let digits = line.split(separator: " ").dropFirst().first { Int($0) != nil }
            return (digits.flatMap { Int($0) } ?? 0) * 1024
        }
        return 0
    }
}

/// The rows measured so far, written out whole after each case to `.build/fault-table.md`.
enum FaultTable {
    private static let rows = Locked<[Int: String]>([:])

    static func record(
        fault: FaultTableLiveTests.Fault, code: NetworkError.Code, elapsed: Duration, peakGrowth: Int,
        order: Int
    ) {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let megabytes = Double(peakGrowth) / 1_048_576
        let row =
            "| \(fault.name) | `\(code.rawValue)` | \(String(format: "%.2f s", seconds)) | "
            + "\(String(format: "%.1f MiB", megabytes)) |"
        print("fault table: \(row)")
        let table = rows.withLock { rows in
            rows[order] = row
            return rows.keys.sorted().compactMap { rows[$0] }
        }
        let text =
            (["| fault | error code | time to fail | peak memory growth |", "|---|---|---|---|"] + table)
            .joined(separator: "\n") + "\n"
        let build = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: ".build")
        try? Data(text.utf8).write(to: build.appending(path: "fault-table.md"))
    }
}
