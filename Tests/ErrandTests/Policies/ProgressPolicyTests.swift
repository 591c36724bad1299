import Errand
import ErrandPolicies
import ErrandSync
import ErrandTestSupport
import Foundation
import Testing

/// Progress carried by the request through each policy: a retry and a re-send after a refresh
/// start the counts again, a cache hit and a coalesced read end with one completed download,
/// an interceptor that builds a new request keeps it.
@Suite struct ProgressPolicyTests {
    let recorder = ProgressRecorder()

    static let upload10 = TransferProgress(direction: .upload, completedBytes: 10, totalBytes: 10)

    static func download(_ bytes: Int64) -> TransferProgress {
        TransferProgress(direction: .download, completedBytes: bytes, totalBytes: bytes)
    }

    static let tenBytes = RequestData.post("/orders")
        .body(.raw(Data("0123456789".utf8), contentType: "application/octet-stream"))
        .retryableWhenNotIdempotent()

    @Test func aRetryStartsTheCountsAgainFromZero() async throws {
        // Given a server that answers 503 ("busy!") once, then "ok", behind a retry
        let server = InMemoryDispatcher()
        server.stub(.post, "/orders", responses: [.status(503, body: Data("busy!".utf8)), .text("ok")])
        let stack = server.retrying(RetryingDispatcherTests.exactPolicy(), clock: RecordingClock())

        // When a 10-byte body is posted with progress
        let response = try await recorder.send(Self.tenBytes, through: stack)

        // Then each attempt reports its own upload and download, the second from the start
        #expect(response.text == "ok")
        #expect(recorder.events == [Self.upload10, Self.download(5), Self.upload10, Self.download(2)])
    }

    @Test func aReSendAfterARefreshStartsTheCountsAgain() async throws {
        // Given a server that refuses the old token, behind auth
        let server = InMemoryDispatcher()
        server.stub(.post, "/orders", response: .status(401))
        server.stub(
            InMemoryDispatcher.Stub(
                .post, "/orders", where: { $0.headers["Authorization"] == "Bearer new" },
                responses: [.text("ok")]))
        let stack = server.authenticating(storage: InMemoryTokenStorage(TokenPair(accessToken: "old"))) { _ in
            TokenPair(accessToken: "new")
        }

        // When a 10-byte body is posted with progress
        let response = try await recorder.send(Self.tenBytes, through: stack)

        // Then the refused attempt and the re-send each report the whole upload
        #expect(response.text == "ok")
        #expect(recorder.events == [Self.upload10, Self.download(0), Self.upload10, Self.download(2)])
    }

    @Test func aCacheHitReportsOneCompletedDownloadBeforeTheAnswer() async throws {
        // Given a fresh response in the cache
        let server = InMemoryDispatcher()
        server.stub(
            .get, "/items",
            response: .status(200, headers: ["Cache-Control": "max-age=60"], body: Data("stored".utf8)))
        let cache = server.caching()
        _ = try await cache.dispatch(.get("/items"))
        let probe = CallbackProbe<String>()
        let seenAtSuccess = Locked<[TransferProgress]?>(nil)

        // When it is asked for again with progress, on one serial queue
        Request<String>(.get("/items")).execute(
            dispatcher: cache, callbackQueue: recorder.queue, progress: recorder.record,
            onSuccess: { [recorder] value in
                seenAtSuccess.withLock { $0 = recorder.eventsSoFar }
                probe.onSuccess(value)
            },
            onError: probe.onError)

        // Then the store answers, with one completed download of the body's size already reported
        #expect(try await probe.first().get() == "stored")
        #expect(server.receivedRequests.count == 1)
        #expect(recorder.events == [Self.download(6)])
        #expect(seenAtSuccess.withLock { $0 } == [Self.download(6)])
    }

    @Test func aCoalescedFollowerGetsOneCompletedDownloadAndTheLeaderItsOwnEvents() async throws {
        // Given a read held for 1 s on a manual clock, behind coalescing
        let clock = ManualClock()
        let server = InMemoryDispatcher(clock: clock)
        server.stub(.get, "/feed", response: .text("news").delayed(by: .seconds(1)))
        let stack = server.coalescingIdenticalRequests()
        let leader = ProgressRecorder()
        let leading = CallbackProbe<NetworkResponse>()
        stack.dispatch(
            request: .get("/feed"), progressQueue: leader.queue, progress: leader.record,
            onSuccess: leading.onSuccess, onError: leading.onError)
        await clock.waitForSleepers()

        // When a second caller asks for the same while it is in flight, and the answer comes
        let following = CallbackProbe<NetworkResponse>()
        stack.dispatch(
            request: .get("/feed"), progressQueue: recorder.queue, progress: recorder.record,
            onSuccess: following.onSuccess, onError: following.onError)
        clock.advance(by: .seconds(1))
        _ = try await leading.first().get()
        _ = try await following.first().get()

        // Then the server saw one request; each caller has one completed download of 4 bytes
        #expect(server.receivedRequests.count == 1)
        #expect(leader.events == [Self.download(4)])
        #expect(recorder.events == [Self.download(4)])
    }

    @Test func anInterceptorThatBuildsANewRequestKeepsItsProgress() async throws {
        // Given an interceptor that makes a fresh request from the fields it is given
        let server = InMemoryDispatcher()
        server.stub(.post, "/orders", response: .text("ok"))
        let stack = server.intercepted(by: [
            ClosureRequestInterceptor { request in
                RequestData(
                    path: request.path, method: request.method, headers: ["X-Fresh": "1"], body: request.body)
            }
        ])

        // When a 10-byte body is posted with progress
        let response = try await recorder.send(Self.tenBytes, through: stack)

        // Then the fresh request reported its upload and download to the caller
        #expect(response.text == "ok")
        #expect(server.receivedRequests.first?.headers["X-Fresh"] == "1")
        #expect(recorder.events == [Self.upload10, Self.download(2)])
    }

    @Test func aQueuedRequestReportsNothingUntilItIsSent() async throws {
        // Given a queue of one, its place taken by a request held on a manual clock
        let clock = ManualClock()
        let server = InMemoryDispatcher(clock: clock)
        server.stub(.get, "/held", response: .text("held").delayed(by: .seconds(1)))
        server.stub(.post, "/orders", response: .text("ok"))
        let stack = server.limitingConcurrency(to: 1)
        let held = CallbackProbe<NetworkResponse>()
        stack.dispatch(request: .get("/held"), onSuccess: held.onSuccess, onError: held.onError)
        await clock.waitForSleepers()

        // When a request with progress waits its turn
        let probe = CallbackProbe<NetworkResponse>()
        stack.dispatch(
            request: Self.tenBytes, progressQueue: recorder.queue, progress: recorder.record,
            onSuccess: probe.onSuccess, onError: probe.onError)

        // Then nothing is reported while it waits, and all of it once it is sent
        #expect(recorder.events.isEmpty)
        clock.advance(by: .seconds(1))
        _ = try await probe.first().get()
        #expect(recorder.events == [Self.upload10, Self.download(2)])
    }
}
