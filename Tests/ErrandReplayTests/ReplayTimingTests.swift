import Errand
import ErrandReplay
import ErrandTestSupport
import Foundation
import Testing

/// Replay with recorded timing: hostile recorded times never stop the process, and the
/// request's deadline bounds the wait as it bounds a live request.
@Suite struct ReplayTimingTests {
    let files: CassetteFolder
    let clock = ManualClock()

    init() throws {
        files = try CassetteFolder()
    }

    /// Writes a cassette of one `GET /slow` entry with the given raw `time` and `timings` JSON.
    func writeCassette(time: String?, timings: String = #"{"send": 0, "wait": 0, "receive": 0}"#) throws {
        let timeMember = time.map { #""time": \#($0), "# } ?? ""
        let text = """
            {"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": [
              {"startedDateTime": "2024-01-01T00:00:00Z", \(timeMember)"timings": \(timings),
               "request": {"method": "GET", "url": "https://api.example.com/slow"},
               "response": {"status": 200, "content": {"mimeType": "text/plain", "text": "slow"}}}
            ]}}
            """
        try FileManager.default.createDirectory(
            at: files.cassette.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: files.cassette)
    }

    func replay(_ configure: (inout ReplayDispatcher.Configuration) -> Void = { _ in }) throws
        -> ReplayDispatcher
    {
        try ReplayDispatcher(
            loading: files.cassette, baseURL: testBaseURL, mode: .replayOnly,
            configuration: testConfiguration {
                $0.timing = .recorded(factor: 1)
                $0.clock = clock
                configure(&$0)
            })
    }

    @Test(arguments: ["1e16", "1.797e308", "9.2233720368547758e18", "1e400"])
    func aHugeRecordedTimeWaitsUntilTheDeadlineInsteadOfStoppingTheProcess(time: String) async throws {
        defer { files.remove() }
        // Given an entry recorded as taking longer than Int64 microseconds can hold
        try writeCassette(time: time)
        let replay = try replay()
        // When it is replayed with recorded timing and a 1 s timeout
        let probe = CallbackProbe<NetworkResponse>()
        replay.dispatch(request: .get("/slow").timeout(1), onSuccess: probe.onSuccess, onError: probe.onError)
        await clock.waitForSleepers()
        clock.advance(by: .seconds(1))
        // Then it times out at the deadline, with a typed error
        let error = try await probe.failure()
        #expect(error.code == .timedOut)
        #expect(error.message.contains("deadline of 1.0 seconds"))
    }

    @Test func timingsThatSumPastDoubleRangeReadAsTheLargestTimeAndStayWritable() async throws {
        defer { files.remove() }
        // Given no `time`, and timings whose sum overflows to infinity
        try writeCassette(time: nil, timings: #"{"send": 1.7e308, "wait": 1.7e308, "receive": 1.7e308}"#)
        // When read, Then the time is finite, so the cassette can be written back
        let har = try files.read()
        #expect(har.entries[0].time == .greatestFiniteMagnitude)
        #expect(throws: Never.self) { try har.encoded() }
        // And replay waits until the deadline
        let replay = try replay { $0.timeout = 2 }
        let probe = CallbackProbe<NetworkResponse>()
        replay.dispatch(request: .get("/slow"), onSuccess: probe.onSuccess, onError: probe.onError)
        await clock.waitForSleepers()
        clock.advance(by: .seconds(2))
        #expect(try await probe.failure().code == .timedOut)
    }

    @Test(arguments: ["-1", "0", #""-5""#])
    func aNegativeOrZeroTimeAnswersAtOnce(time: String) throws {
        defer { files.remove() }
        try writeCassette(time: time)
        let replay = try replay()
        let probe = CallbackProbe<NetworkResponse>()
        replay.dispatch(request: .get("/slow"), onSuccess: probe.onSuccess, onError: probe.onError)
        #expect(probe.deliveries.count == 1)
        #expect(clock.sleeperCount == 0)
    }

    @Test(arguments: [Double.infinity, 1e300, Double.greatestFiniteMagnitude])
    func aHugeFactorWaitsUntilTheDeadlineInsteadOfAnsweringAtOnce(factor: Double) async throws {
        defer { files.remove() }
        try writeCassette(time: "10")
        let replay = try replay { $0.timing = .recorded(factor: factor) }
        let probe = CallbackProbe<NetworkResponse>()
        replay.dispatch(request: .get("/slow").timeout(5), onSuccess: probe.onSuccess, onError: probe.onError)
        #expect(probe.deliveries.isEmpty)
        await clock.waitForSleepers()
        clock.advance(by: .seconds(5))
        #expect(try await probe.failure().code == .timedOut)
    }

    @Test func aRecordingLongerThanTheRequestsTimeoutTimesOutAtTheDeadline() async throws {
        defer { files.remove() }
        // Given an entry recorded as taking a day
        try writeCassette(time: "86400000")
        let replay = try replay()
        // When replayed with a 1 s timeout
        let probe = CallbackProbe<NetworkResponse>()
        replay.dispatch(request: .get("/slow").timeout(1), onSuccess: probe.onSuccess, onError: probe.onError)
        await clock.waitForSleepers()
        clock.advance(by: .milliseconds(999))
        await Task.yield()
        #expect(probe.deliveries.isEmpty)
        // Then it fails with timedOut when the second is up
        clock.advance(by: .milliseconds(1))
        let error = try await probe.failure()
        #expect(error.code == .timedOut)
        #expect(error.message.contains("the recording took 86400000.0 ms"))
    }

    @Test func aRecordingShorterThanTheDeadlineAnswersAfterItsTime() async throws {
        defer { files.remove() }
        try writeCassette(time: "1500")
        let replay = try replay()
        let probe = CallbackProbe<NetworkResponse>()
        replay.dispatch(request: .get("/slow").timeout(2), onSuccess: probe.onSuccess, onError: probe.onError)
        await clock.waitForSleepers()
        clock.advance(by: .milliseconds(1_500))
        #expect(try await probe.first().get().text == "slow")
    }

    @Test func theDispatcherTimeoutIsSixtySecondsByDefaultAndInfinityMeansNone() async throws {
        defer { files.remove() }
        try writeCassette(time: "86400000")
        #expect(ReplayDispatcher.Configuration().timeout == 60)
        // Given no request timeout, When 60 s pass, Then the default deadline ends it
        let bounded = try replay()
        let first = CallbackProbe<NetworkResponse>()
        bounded.dispatch(request: .get("/slow"), onSuccess: first.onSuccess, onError: first.onError)
        await clock.waitForSleepers()
        clock.advance(by: .seconds(60))
        #expect(try await first.failure().code == .timedOut)
        // Given `.infinity`, Then only the recorded day ends it, with the response
        let unbounded = try replay { $0.timeout = .infinity }
        let second = CallbackProbe<NetworkResponse>()
        unbounded.dispatch(request: .get("/slow"), onSuccess: second.onSuccess, onError: second.onError)
        await clock.waitForSleepers()
        clock.advance(by: .seconds(3_600))
        await Task.yield()
        #expect(second.deliveries.isEmpty)
        clock.advance(by: .seconds(86_400))
        #expect(try await second.first().get().text == "slow")
    }

    @Test func instantTimingIgnoresTheRecordedTime() throws {
        defer { files.remove() }
        try writeCassette(time: "1e16")
        let replay = try replay { $0.timing = .instant }
        let probe = CallbackProbe<NetworkResponse>()
        replay.dispatch(request: .get("/slow").timeout(1), onSuccess: probe.onSuccess, onError: probe.onError)
        #expect(try probe.deliveries.first?.get().text == "slow")
    }
}
