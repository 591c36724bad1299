import Dispatch
import Errand
import ErrandPolicies
import ErrandSync
import ErrandTestSupport
import Foundation
import Testing

/// Progress through a whole stack (auth, retry, logging, cache, queue) over the live transport.
@Suite(.enabled(if: LiveServer.httpbinAvailable, LiveServer.skipReason))
struct ProgressStackLiveTests {
    let stack: any NetworkDispatcher
    let lines = Locked(0)
    let recorder = ProgressRecorder()

    init() throws {
        let transport = URLSessionDispatcher(
            baseURL: try LiveServer.require(LiveServer.httpbin, "ERRAND_HTTPBIN_URL"))
        stack = Self.stack(over: transport, lines: lines)
    }

    /// `transport` as an app composes it: auth, retry, logging, cache, then a queue of two.
    static func stack(over transport: any NetworkDispatcher, lines: Locked<Int>) -> any NetworkDispatcher {
        transport
            .authenticating(storage: InMemoryTokenStorage(TokenPair(accessToken: "stored-token"))) { $0 }
            .retrying(RetryingDispatcherTests.exactPolicy(), clock: RecordingClock())
            .logging(to: ClosureLogSink { _ in lines.withLock { $0 += 1 } })
            .caching()
            .limitingConcurrency(to: 2)
    }

    @Test func anUploadAndItsAnswerReportThroughTheWholeStackBeforeTheValue() async throws {
        // Given a 256 KiB body and one serial queue for progress and outcome
        let body = Data((0..<262_144).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let probe = CallbackProbe<Data>()
        let seenAtSuccess = Locked<[TransferProgress]?>(nil)

        // When it is posted through the stack with progress
        Request<Data>(.post("/post").body(.raw(body, contentType: "application/octet-stream")))
            .execute(
                dispatcher: stack, callbackQueue: recorder.queue, progress: recorder.record,
                onSuccess: { [recorder] data in
                    seenAtSuccess.withLock { $0 = recorder.eventsSoFar }
                    probe.onSuccess(data)
                },
                onError: probe.onError)

        // Then the upload rises to its full size, and the download ends at the echo's size,
        // all of it delivered before the value, once
        let echo = try await probe.first().get()
        #expect(probe.deliveries.count == 1)
        let uploads = recorder.uploads
        #expect(!uploads.isEmpty)
        #expect(uploads.allSatisfy { $0.totalBytes == 262_144 })
        #expect(ProgressRecorder.isMonotonic(uploads))
        #expect(uploads.last?.completedBytes == 262_144)
        let downloads = recorder.downloads
        #expect(ProgressRecorder.isMonotonic(downloads))
        #expect(downloads.last?.completedBytes == Int64(echo.count))
        #expect(seenAtSuccess.withLock { $0 } == recorder.events)
        #expect(recorder.offQueue == 0)
        #expect(lines.withLock { $0 } > 0)
    }

    @Test func eachRetriedAttemptReportsItsOwnDownload() async throws {
        // Given an endpoint that always answers 503 with an empty body, and three attempts

        // When it is fetched through the stack with progress
        let error = await #expect(throws: NetworkError.self) {
            try await Request<EmptyResponse>(.get("/status/503")).execute(
                dispatcher: stack, progressQueue: recorder.queue, progress: recorder.record)
        }

        // Then each attempt reported its own completed download, and nothing came after the error
        #expect(error?.attempts == 3)
        let empty = TransferProgress(direction: .download, completedBytes: 0, totalBytes: 0)
        #expect(recorder.events == [empty, empty, empty])
    }

    @Test func aCacheHitReportsOneCompletedDownloadOfTheStoredBody() async throws {
        // Given a response fresh for 60 s, fetched once with progress over the network
        let first = ProgressRecorder()
        let fetched = try await first.send(.get("/cache/60"), through: stack)
        #expect(fetched.cacheStatus == .network)
        #expect(first.downloads.last?.completedBytes == Int64(fetched.body.count))

        // When it is asked for again with progress
        let cached = try await recorder.send(.get("/cache/60"), through: stack)

        // Then the store answers, with one completed download of its body's size
        #expect(cached.cacheStatus == .hit)
        let size = Int64(cached.body.count)
        #expect(
            recorder.events == [
                TransferProgress(direction: .download, completedBytes: size, totalBytes: size)
            ])
    }
}

/// Hostile claims through the stack, from the fault server.
@Suite(.enabled(if: LiveServer.faultAvailable, LiveServer.skipReason))
struct ProgressStackFaultTests {
    @Test func aContentLengthOf2To62BytesThatNeverArrivesEndsWithTheCancel() async throws {
        // Given a server that announces 2^62 bytes, sends 10, and stalls, under a stack whose
        // transport accepts any size
        let transport = URLSessionDispatcher(
            baseURL: try LiveServer.require(LiveServer.fault, "ERRAND_FAULT_URL"), maximumResponseSize: .max)
        let stack = ProgressStackLiveTests.stack(over: transport, lines: Locked(0))
        let recorder = ProgressRecorder()
        let probe = CallbackProbe<NetworkResponse>()
        let call = stack.dispatch(
            request: .get("/stall-body").query("sent", "10").query("length", "4611686018427387904").timeout(
                60),
            progressQueue: recorder.queue, progress: recorder.record, onSuccess: probe.onSuccess,
            onError: probe.onError)
        await waitUntil("a first progress event") { !recorder.events.isEmpty }

        // When it is cancelled
        call.cancel()
        let error = try await probe.failure()
        let atTheEnd = recorder.events

        // Then it ends once with `cancelled`; every event carries the claim as its total, none
        // claims completion, and none came after
        #expect(error.code == .cancelled)
        #expect(probe.deliveries.count == 1)
        #expect(!atTheEnd.isEmpty)
        #expect(atTheEnd.allSatisfy { $0.totalBytes == 1 << 62 && $0.completedBytes <= 10 && !$0.isComplete })
        #expect(atTheEnd.allSatisfy { ($0.fraction ?? 1) < 1e-15 })
        #expect(recorder.events == atTheEnd)
    }
}
