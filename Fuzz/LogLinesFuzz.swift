import Foundation

@testable import Errand
@testable import ErrandPolicies

/// The logging policy's entries, for a request and an answer made of any bytes: at every level,
/// each entry is exactly one line that starts with its own `[errand #N]`, plus lines indented by
/// two spaces, with no control character but those line breaks; a valid request gets two
/// entries, a refused one one; and exactly one callback runs.
///
/// The input's NUL-separated fields are, in order: method, path, request header name and value,
/// request body and content type, status, response header name and value, response body and
/// content type, outcome (a first byte that is odd makes the answer a failure of the code it
/// picks), and the seconds the answer takes.
enum LogLinesFuzz {
    static func run(_ input: FuzzInput) {
        let fields = input.fields
        let chunks = input.chunks
        func field(_ index: Int) -> String { index < fields.count ? fields[index] : "" }
        func chunk(_ index: Int) -> Data { index < chunks.count ? chunks[index] : Data() }

        var request = RequestData(
            path: field(1), method: HTTPMethod(rawValue: field(0).isEmpty ? "POST" : field(0)))
        if !field(2).isEmpty { request.headers.add(field(2), field(3)) }
        if !chunk(4).isEmpty { request.body = .raw(chunk(4), contentType: field(5)) }
        var headers = HTTPHeaders()
        if !field(7).isEmpty { headers.add(field(7), field(8)) }
        if !field(10).isEmpty { headers.add("Content-Type", field(10)) }
        let status = Int(field(6)) ?? chunk(6).reduce(0) { ($0 &* 31) &+ Int($1) }
        let response = NetworkResponse(statusCode: status, headers: headers, body: chunk(9), request: request)
        let outcome: Result<NetworkResponse, NetworkError>
        if let selector = chunk(11).first, !selector.isMultiple(of: 2) {
            let codes = NetworkError.Code.allCases
            let code = codes[Int(selector) % codes.count]
            outcome = .failure(
                NetworkError(
                    code: code, message: field(11), response: selector & 2 == 0 ? response : nil))
        } else {
            outcome = .success(response)
        }
        let seconds = chunk(12).prefix(8).reduce(Int64(0)) { ($0 << 8) | Int64($1) }
        let duration = Duration(secondsComponent: seconds, attosecondsComponent: 0)
        let shown = LogFormatter.milliseconds(duration)
        fuzzCheck(
            shown.hasSuffix(" ms") && !shown.contains { $0.isNewline },
            "duration \(duration) shown as \(shown)")

        let refused = (try? request.requireValid()) == nil
        for level in LogLevel.allCases {
            let sink = CollectingSink()
            let base = AnsweringDispatcher(outcome: outcome, jump: duration)
            let dispatcher = base.logging(to: sink, level: level, clock: base.clock)
            let deliveries = Counter()
            dispatcher.dispatch(
                request: request, onSuccess: { _ in deliveries.add() }, onError: { _ in deliveries.add() })
            fuzzCheck(deliveries.value == 1, "\(deliveries.value) callbacks at \(level)")
            let entries = sink.entries
            let expected = level == .none ? 0 : refused ? 1 : 2
            fuzzCheck(
                entries.count == expected, "\(entries.count) entries at \(level), not \(expected): \(entries)"
            )
            for entry in entries { check(entry) }
        }
    }

    /// Stops on an entry that is not one prefixed line plus indented ones, or that holds a raw
    /// control character.
    private static func check(_ entry: LogLine) {
        let text = entry.text
        fuzzCheck(text.hasPrefix("[errand #\(entry.requestID)] "), "no prefix: \(text.debugDescription)")
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst() {
            fuzzCheck(
                line.hasPrefix("  "),
                "line not indented: \(line.debugDescription) in \(text.debugDescription)")
        }
        let raw = text.unicodeScalars.first { $0 != "\n" && EscapedText.needsEscape($0) }
        fuzzCheck(raw == nil, "raw \(String(describing: raw)) in \(text.debugDescription)")
    }
}

/// Keeps every entry, under `lock`.
private final class CollectingSink: LogSink, @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [LogLine] = []

    var entries: [LogLine] { lock.withLock { kept } }
    func log(_ line: LogLine) { lock.withLock { kept.append(line) } }
}

/// Counts callbacks, under `lock`.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}

/// Answers every request with one outcome, checking nothing, as a hostile server would, after
/// moving its clock on by `jump`.
private struct AnsweringDispatcher: NetworkDispatcher {
    let outcome: Result<NetworkResponse, NetworkError>
    let jump: Duration
    let clock = SteppingClock()

    func dispatch(
        request: RequestData, onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        clock.advance(by: jump)
        switch outcome {
        case .success(let response): onSuccess(response)
        case .failure(let error): onError(error)
        }
        return CancellableAction.none
    }
}

/// A clock that moves only when told, by any amount, under `lock`.
private final class SteppingClock: Clock, @unchecked Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)

    var now: Instant { lock.withLock { current } }
    var minimumResolution: Duration { .zero }

    func advance(by duration: Duration) { lock.withLock { current = current.advanced(by: duration) } }
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {}
}
