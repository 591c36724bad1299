import Errand
import ErrandReplay
import ErrandTestSupport
import Foundation
import Testing

/// Replayed progress: the upload when the recorded `send` phase ends, the download spread over
/// the recorded `receive` phase, on the injected clock; at once without timing.
@Suite struct ReplayProgressTests {
    let files: CassetteFolder
    let clock = ManualClock()
    let recorder = ProgressRecorder()

    init() throws {
        files = try CassetteFolder()
    }

    static let upload = TransferProgress(direction: .upload, completedBytes: 6, totalBytes: 6)

    static func download(_ bytes: Int64) -> TransferProgress {
        TransferProgress(direction: .download, completedBytes: bytes, totalBytes: 8)
    }

    /// One `POST /upload` entry of 1 s: 100 ms sending, 500 ms waiting, 400 ms receiving an
    /// 8-byte body that the cassette claims is 2^62 bytes.
    func writeCassette() throws {
        let text = """
            {"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": [
              {"startedDateTime": "2024-01-01T00:00:00Z", "time": 1000,
               "timings": {"send": 100, "wait": 500, "receive": 400},
               "request": {"method": "POST", "url": "https://api.example.com/upload",
                           "postData": {"mimeType": "text/plain", "text": "abcdef"}},
               "response": {"status": 200, "bodySize": 4611686018427387904,
                            "content": {"mimeType": "text/plain", "size": 4611686018427387904,
                                        "text": "12345678"}}}
            ]}}
            """
        try FileManager.default.createDirectory(
            at: files.cassette.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: files.cassette)
    }

    func replay(_ timing: ReplayDispatcher.Timing) throws -> ReplayDispatcher {
        try ReplayDispatcher(
            loading: files.cassette, baseURL: testBaseURL, mode: .replayOnly,
            configuration: testConfiguration {
                $0.timing = timing
                $0.clock = clock
            })
    }

    static let request = RequestData.post("/upload").body(
        .raw(Data("abcdef".utf8), contentType: "text/plain"))

    /// Moves the clock on by `milliseconds` and waits until the replay sleeps again.
    func advance(_ milliseconds: Int64) async {
        clock.advance(by: .milliseconds(milliseconds))
        await clock.waitForSleepers()
    }

    @Test func replaysTheUploadAndTheDownloadWithTheRecordedTiming() async throws {
        defer { files.remove() }
        // Given a recording of 1 s, replayed with its timing
        try writeCassette()
        let replay = try replay(.recorded(factor: 1))
        let probe = CallbackProbe<NetworkResponse>()

        // When it is replayed with progress
        replay.dispatch(
            request: Self.request, progressQueue: recorder.queue, progress: recorder.record,
            onSuccess: probe.onSuccess, onError: probe.onError)
        await clock.waitForSleepers()
        #expect(recorder.events.isEmpty)

        // Then the upload comes when the send phase ends, nothing during the wait
        await advance(100)
        #expect(recorder.events == [Self.upload])
        await advance(500)
        #expect(recorder.events == [Self.upload])
        // And the body's 8 bytes (not the 2^62 claimed) arrive over the receive phase
        await advance(100)
        #expect(recorder.events == [Self.upload, Self.download(2)])
        await advance(200)
        #expect(recorder.events == [Self.upload, Self.download(2), Self.download(4), Self.download(6)])
        #expect(probe.deliveries.isEmpty)
        clock.advance(by: .milliseconds(100))
        let response = try await probe.first().get()
        #expect(response.body.count == 8)
        #expect(
            recorder.events == [
                Self.upload, Self.download(2), Self.download(4), Self.download(6), Self.download(8),
            ])
    }

    @Test func replaysAllAtOnceWithoutTiming() async throws {
        defer { files.remove() }
        // Given the recording replayed without timing
        try writeCassette()
        let replay = try replay(.instant)

        // When it is replayed with progress
        let response = try await recorder.send(Self.request, through: replay)

        // Then the whole upload and the whole download are reported, with no wait
        #expect(response.body.count == 8)
        #expect(recorder.events == [Self.upload, Self.download(8)])
        #expect(clock.sleeperCount == 0)
    }

    @Test func theDeadlineCutsTheReplayedProgressShort() async throws {
        defer { files.remove() }
        // Given the recording of 1 s, and a deadline of 0.75 s
        try writeCassette()
        let replay = try replay(.recorded(factor: 1))
        let probe = CallbackProbe<NetworkResponse>()

        // When it is replayed with progress and the deadline passes
        replay.dispatch(
            request: Self.request.timeout(0.75), progressQueue: recorder.queue, progress: recorder.record,
            onSuccess: probe.onSuccess, onError: probe.onError)
        await clock.waitForSleepers()
        clock.advance(by: .seconds(10))

        // Then it times out having reported only what was due before the deadline
        #expect(try await probe.failure().code == .timedOut)
        #expect(recorder.events == [Self.upload, Self.download(2)])
    }

    @Test func aCancelledReplayReportsNothingMore() async throws {
        defer { files.remove() }
        // Given the recording replayed with its timing, its upload reported
        try writeCassette()
        let replay = try replay(.recorded(factor: 1))
        let probe = CallbackProbe<NetworkResponse>()
        let call = replay.dispatch(
            request: Self.request, progressQueue: recorder.queue, progress: recorder.record,
            onSuccess: probe.onSuccess, onError: probe.onError)
        await clock.waitForSleepers()
        await advance(100)

        // When it is cancelled, and the recorded time passes
        call.cancel()
        let error = try await probe.failure()
        clock.advance(by: .seconds(10))

        // Then it ended with `cancelled`, once, after the upload alone
        #expect(error.code == .cancelled)
        #expect(probe.deliveries.count == 1)
        #expect(recorder.events == [Self.upload])
    }
}
