import Dispatch
import ErrandSync
import ErrandTestSupport
import Foundation
import Testing

@testable import Errand

/// Upload and download progress of `URLSessionDispatcher`, against httpbin and the fault server.
@Suite(.enabled(if: LiveServer.httpbinAvailable, LiveServer.skipReason))
struct ProgressLiveTests {
    let dispatcher: URLSessionDispatcher

    init() throws {
        dispatcher = URLSessionDispatcher(
            baseURL: try LiveServer.require(LiveServer.httpbin, "ERRAND_HTTPBIN_URL"))
    }

    @Test func reportsAnUploadUpToItsFullSize() async throws {
        // Given a 1 MiB body
        let body = Data((0..<1_048_576).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let recorder = ProgressRecorder()

        // When it is posted with a progress handler on a queue of our own
        let response = try await recorder.send(
            .post("/anything").body(.raw(body, contentType: "application/octet-stream")), through: dispatcher)

        // Then upload events rise to the full size, on that queue
        #expect(response.statusCode == 200)
        let uploads = recorder.events.filter { $0.direction == .upload }
        // How many intermediate events come depends on how fast loopback drains the body.
        #expect(!uploads.isEmpty)
        #expect(uploads.allSatisfy { $0.totalBytes == 1_048_576 && $0.fraction != nil })
        #expect(Self.isMonotonic(uploads))
        #expect(uploads.last?.completedBytes == 1_048_576)
        #expect(uploads.last?.fraction == 1)
        #expect(recorder.offQueue == 0)
    }

    @Test func reportsADownloadOfKnownLength() async throws {
        // Given a body with a Content-Length
        let recorder = ProgressRecorder()

        // When it is fetched with progress
        let response = try await recorder.send(.get("/bytes/102400"), through: dispatcher)

        // Then the events carry the total and end at it
        #expect(response.body.count == 102_400)
        let downloads = recorder.events.filter { $0.direction == .download }
        #expect(!downloads.isEmpty)
        #expect(downloads.allSatisfy { $0.totalBytes == 102_400 })
        #expect(Self.isMonotonic(downloads))
        #expect(downloads.last?.completedBytes == 102_400)
        #expect(downloads.last?.isComplete == true)
        #expect(recorder.events.allSatisfy { $0.direction == .download })
        #expect(recorder.offQueue == 0)
    }

    @Test func leavesTheFractionUnknownForAChunkedDownload() async throws {
        // Given a chunked body: no Content-Length
        let recorder = ProgressRecorder()

        // When it is fetched with progress
        let response = try await recorder.send(.get("/stream-bytes/102400"), through: dispatcher)

        // Then no event claims a fraction, and the last one has every byte
        #expect(response.body.count == 102_400)
        let downloads = recorder.events.filter { $0.direction == .download }
        #expect(!downloads.isEmpty)
        #expect(downloads.allSatisfy { $0.totalBytes == nil && $0.fraction == nil })
        #expect(Self.isMonotonic(downloads))
        #expect(downloads.last?.completedBytes == 102_400)
    }

    @Test func reportsAnEmptyDownloadAsComplete() async throws {
        // Given a body of zero bytes: no data ever arrives to count
        let recorder = ProgressRecorder()

        // When it is fetched with progress
        let response = try await recorder.send(.get("/bytes/0"), through: dispatcher)

        // Then one final event still says the download is complete
        #expect(response.body.isEmpty)
        #expect(recorder.events == [TransferProgress(direction: .download, completedBytes: 0, totalBytes: 0)])
        #expect(recorder.events.last?.fraction == 1)
    }

    @Test func leavesTheTotalUnknownForACompressedDownload() async throws {
        // Given a gzip body: its Content-Length counts compressed bytes, the body arrives decoded
        let recorder = ProgressRecorder()

        // When it is fetched with progress
        let response = try await recorder.send(.get("/gzip"), through: dispatcher)

        // Then no event claims a total, and the last one has every decoded byte
        let downloads = recorder.events.filter { $0.direction == .download }
        #expect(!downloads.isEmpty)
        #expect(downloads.allSatisfy { $0.totalBytes == nil })
        #expect(downloads.last?.completedBytes == Int64(response.body.count))
    }

    @Test func executeDeliversTheLastEventBeforeTheValueOnTheCallbackQueue() async throws {
        // Given one serial callback queue for progress and outcome
        let queue = DispatchQueue(label: "errand.tests.progress-execute")
        let events = Locked<[TransferProgress]>([])
        let seenAtSuccess = Locked<[TransferProgress]?>(nil)
        let probe = CallbackProbe<Data>()

        // When a request is executed with progress
        Request<Data>(.get("/bytes/65536")).execute(
            dispatcher: dispatcher, callbackQueue: queue,
            progress: { event in
                dispatchPrecondition(condition: .onQueue(queue))
                events.withLock { $0.append(event) }
            },
            onSuccess: { data in
                dispatchPrecondition(condition: .onQueue(queue))
                seenAtSuccess.withLock { $0 = events.withLock { $0 } }
                probe.onSuccess(data)
            },
            onError: probe.onError)

        // Then the final count was already delivered when the value arrived, exactly once
        let data = try await probe.first().get()
        #expect(data.count == 65_536)
        #expect(seenAtSuccess.withLock { $0 }?.last?.completedBytes == 65_536)
        #expect(probe.deliveries.count == 1)
    }

    @Test func asyncExecuteReportsProgressToo() async throws {
        // Given a progress recorder
        let recorder = ProgressRecorder()

        // When a request is executed with async/await and progress
        let data = try await Request<Data>(.get("/bytes/4096")).execute(
            dispatcher: dispatcher, progressQueue: recorder.queue, progress: recorder.record)

        // Then the last event carries the full count
        #expect(data.count == 4096)
        #expect(
            recorder.events.last
                == TransferProgress(direction: .download, completedBytes: 4096, totalBytes: 4096))
        #expect(recorder.offQueue == 0)
    }

    @Test func aPlainDispatchReportsNothingAndStillWorks() async throws {
        // Given a plain dispatch, without progress
        let probe = CallbackProbe<NetworkResponse>()

        // When it is sent
        dispatcher.dispatch(request: .get("/bytes/1024"), onSuccess: probe.onSuccess, onError: probe.onError)

        // Then it completes once, as before
        let response = try await probe.first().get()
        #expect(response.body.count == 1024)
        #expect(probe.deliveries.count == 1)
    }

    static func isMonotonic(_ events: [TransferProgress]) -> Bool {
        zip(events, events.dropFirst()).allSatisfy { $0.completedBytes <= $1.completedBytes }
    }
}

/// Progress against faults: a stalled body and a silent server.
@Suite(.enabled(if: LiveServer.faultAvailable, LiveServer.skipReason))
struct ProgressFaultTests {
    let dispatcher: URLSessionDispatcher

    init() throws {
        dispatcher = URLSessionDispatcher(
            baseURL: try LiveServer.require(LiveServer.fault, "ERRAND_FAULT_URL"))
    }

    @Test func cancellingATransferInProgressEndsItOnce() async throws {
        // Given a download that has started to arrive and then stalls, so only a cancel can
        // end it (a slow drip could finish first on a starved machine)
        let recorder = ProgressRecorder()
        let probe = CallbackProbe<NetworkResponse>()
        let call = dispatcher.dispatch(
            request: .get("/stall-body").query("sent", "10").query("length", "400").timeout(60),
            progressQueue: recorder.queue, progress: recorder.record, onSuccess: probe.onSuccess,
            onError: probe.onError)
        await waitUntil("a first progress event") { !recorder.events.isEmpty }

        // When it is cancelled
        call.cancel()

        // Then it ends with `cancelled`, once
        let error = try await probe.failure()
        #expect(error.code == .cancelled)
        #expect(probe.deliveries.count == 1)
        #expect(recorder.events.allSatisfy { $0.totalBytes == 400 && $0.completedBytes < 400 })
    }

    @Test func theDeadlineStillHoldsForATransferWithProgress() async throws {
        // Given a server that never answers
        let recorder = ProgressRecorder()

        // When a request with progress and a 1 s deadline is sent
        let error = await #expect(throws: NetworkError.self) {
            try await recorder.send(.get("/silence").timeout(1), through: dispatcher)
        }

        // Then the deadline ends it
        #expect(error?.code == .timedOut)
        #expect(recorder.events.isEmpty)
    }
}
