import Errand
import ErrandSync
import ErrandTestSupport
import Foundation
import Testing

/// The progress `InMemoryDispatcher` fakes: an upload of the body's size when the request
/// arrives, a download of the stub's body when it answers, on the injected clock.
@Suite struct ProgressFakeTests {
    let clock = ManualClock()
    let recorder = ProgressRecorder()

    static func upload(_ bytes: Int64) -> TransferProgress {
        TransferProgress(direction: .upload, completedBytes: bytes, totalBytes: bytes)
    }

    static func download(_ bytes: Int64) -> TransferProgress {
        TransferProgress(direction: .download, completedBytes: bytes, totalBytes: bytes)
    }

    @Test func reportsTheUploadAtOnceAndTheDownloadAfterTheStubsDelay() async throws {
        // Given a stub that answers "done" after 2 s on a manual clock
        let server = InMemoryDispatcher(clock: clock)
        server.stub(.post, "/notes", response: .text("done").delayed(by: .seconds(2)))
        let probe = CallbackProbe<String>()

        // When a 5-byte body is posted with progress
        Request<String>(.post("/notes").body(.raw(Data("hello".utf8), contentType: "text/plain")))
            .execute(
                dispatcher: server, callbackQueue: recorder.queue, progress: recorder.record,
                onSuccess: probe.onSuccess, onError: probe.onError)

        // Then the upload is reported before any time passes, and nothing else
        await clock.waitForSleepers()
        #expect(recorder.events == [Self.upload(5)])
        #expect(probe.deliveries.isEmpty)

        // And when the delay passes, the download comes, then the value, on the same queue
        clock.advance(by: .seconds(2))
        #expect(try await probe.first().get() == "done")
        #expect(recorder.events == [Self.upload(5), Self.download(4)])
        #expect(recorder.offQueue == 0)
    }

    @Test func anEmptyBodyReportsNoUploadAndAnEmptyAnswerEndsComplete() async throws {
        // Given a stub that answers 204 with no body
        let server = InMemoryDispatcher()
        server.stub(.put, "/flags", response: .status(204))

        // When a body of 0 bytes is sent with progress
        let response = try await recorder.send(
            .put("/flags").body(.raw(Data(), contentType: "application/octet-stream")), through: server)

        // Then there is no upload event, and one download event of 0 of 0, complete
        #expect(response.statusCode == 204)
        #expect(recorder.events == [Self.download(0)])
        #expect(recorder.events.first?.fraction == 1)
        #expect(recorder.events.first?.isComplete == true)
    }

    @Test func aStubWithAHugeDelayCancelledReportsNothingMore() async throws {
        // Given a stub whose answer is due in about 292 billion years
        let server = InMemoryDispatcher(clock: clock)
        server.stub(.post, "/slow", response: .text("never").delayed(by: .seconds(Int64.max)))
        let probe = CallbackProbe<NetworkResponse>()
        let call = server.dispatch(
            request: .post("/slow").body(
                .raw(Data([0, 13, 10, 27]), contentType: "application/octet-stream")),
            progressQueue: recorder.queue, progress: recorder.record, onSuccess: probe.onSuccess,
            onError: probe.onError)
        await clock.waitForSleepers()

        // When it is cancelled, and then all that time passes
        call.cancel()
        let error = try await probe.failure()
        clock.advance(by: .seconds(Int64.max))

        // Then it ended with `cancelled`, once, and only the upload was ever reported
        #expect(error.code == .cancelled)
        #expect(probe.deliveries.count == 1)
        #expect(recorder.events == [Self.upload(4)])
    }

    @Test func aHugeContentLengthClaimIsNotTakenForTheTotal() async throws {
        // Given a stub that claims 2^62 bytes and brings 3
        let server = InMemoryDispatcher()
        server.stub(
            .get, "/claim",
            response: .status(200, headers: ["Content-Length": "4611686018427387904"], body: Data("abc".utf8))
        )

        // When it is fetched with progress
        let response = try await recorder.send(.get("/claim"), through: server)

        // Then the download counts the bytes that came, complete
        #expect(response.body.count == 3)
        #expect(recorder.events == [Self.download(3)])
    }

    @Test func theAsyncFormsReportThroughAnyDispatcher() async throws {
        // Given a stub
        let server = InMemoryDispatcher()
        server.stub(.get, "/bytes", response: .data(Data(repeating: 7, count: 100)))

        // When the request is executed with async/await and progress
        let data = try await Request<Data>(.get("/bytes")).execute(
            dispatcher: server, progressQueue: recorder.queue, progress: recorder.record)
        // And a raw request is dispatched with async/await and progress
        let other = ProgressRecorder()
        let response = try await server.dispatch(
            .get("/bytes"), progressQueue: other.queue, progress: other.record)

        // Then each reports the download, to its own handler
        #expect(data.count == 100 && response.body.count == 100)
        #expect(recorder.events == [Self.download(100)])
        #expect(other.events == [Self.download(100)])
    }
}
