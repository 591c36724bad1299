import ErrandSync
import ErrandTestSupport
import Foundation
import Testing

@testable import Errand

@Suite struct ConcurrentDecodingTests {
    @Test func aLargeLateBodyIsDecodedOffTheTransportAndCallbackQueuesAndDeliveredOnTheChosenOneOnce()
        async throws
    {
        // Given a large body that the transport delivers on its own queue after dispatch returns
        let body = try [User].encoded(reaching: ConcurrentDecoding.threshold)
        let dispatcher = HeldAnswerDispatcher(body: body)
        let callbackQueue = QueueName.queue("callback")
        let request = ObservedDecode()
        let deliveredOn = Locked<[String]>([])
        let probe = CallbackProbe<Int>()

        // When it is executed with a callback queue
        request.execute(
            dispatcher: dispatcher, callbackQueue: callbackQueue,
            onSuccess: { value in
                deliveredOn.withLock { $0.append(QueueName.current) }
                probe.onSuccess(value.users.count)
            }, onError: probe.onError)
        dispatcher.answerAll()

        // Then it decodes on neither queue, and calls back on the chosen one, once
        let count = try await probe.first().get()
        await flush(callbackQueue)
        #expect(count > 0)
        #expect(request.decodedOn.withLock { $0 } == ["other"])
        #expect(deliveredOn.withLock { $0 } == ["callback"])
        #expect(probe.deliveries.count == 1)
    }

    @Test func aSmallBodyIsDecodedWhereTheTransportDeliveredIt() async throws {
        let body = try JSONEncoder().encode([User(id: 1, name: "Ada")])
        let dispatcher = HeldAnswerDispatcher(body: body)
        let request = ObservedDecode()
        let probe = CallbackProbe<Int>()

        request.execute(
            dispatcher: dispatcher, callbackQueue: nil, onSuccess: { probe.onSuccess($0.users.count) },
            onError: probe.onError)
        dispatcher.answerAll()

        #expect(try await probe.first().get() == 1)
        #expect(request.decodedOn.withLock { $0 } == [HeldAnswerDispatcher.queueName])
    }

    @Test func aLargeBodyAnsweredDuringDispatchIsDeliveredBeforeExecuteReturns() throws {
        let body = try [User].encoded(reaching: 2 * ConcurrentDecoding.threshold)
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/users", response: .data(body, contentType: "application/json"))
        let delivered = Locked<[Int]>([])

        ObservedDecode().execute(
            dispatcher: dispatcher, callbackQueue: nil,
            onSuccess: { value in delivered.withLock { $0.append(value.users.count) } },
            onError: { error in Issue.record(error) })

        #expect(delivered.withLock { $0.count } == 1)
    }

    @Test func theAsyncFormDecodesALargeLateBodyOffTheTransportQueue() async throws {
        let body = try [User].encoded(reaching: ConcurrentDecoding.threshold)
        let dispatcher = HeldAnswerDispatcher(body: body)
        let request = ObservedDecode()

        async let value = request.execute(dispatcher: dispatcher)
        await waitUntil("the request is dispatched") { dispatcher.receivedRequests.count == 1 }
        dispatcher.answerAll()

        #expect(try await value.users.isEmpty == false)
        #expect(request.decodedOn.withLock { $0 } == ["other"])
    }

    @Test func aCancelDuringDecodingEndsWithCancelledOnceAndDropsTheValue() async throws {
        // Given a large body whose decode is held until the test lets it go
        let body = try [User].encoded(reaching: ConcurrentDecoding.threshold)
        let dispatcher = HeldAnswerDispatcher(body: body)
        let callbackQueue = QueueName.queue("callback")
        let started = CallbackProbe<Int>()
        let released = CallbackProbe<Int>()
        let hold = DispatchSemaphore(value: 0)
        let request = ObservedDecode(
            during: {
                started.onSuccess(1)
                hold.wait()
            }, onRelease: { released.onSuccess(1) })
        let successes = Locked(0)
        let probe = CallbackProbe<Int>()
        let call = request.execute(
            dispatcher: dispatcher, callbackQueue: callbackQueue,
            onSuccess: { _ in successes.withLock { $0 += 1 } }, onError: probe.onError)
        dispatcher.answerAll()
        _ = await started.first()

        // When the call is cancelled while it decodes
        call.cancel()

        // Then it ends with cancelled at once, and the value decoded after is released undelivered
        let error = try await probe.failure()
        #expect(error.code == .cancelled)
        hold.signal()
        _ = await released.first()
        await flush(callbackQueue)
        #expect(successes.withLock { $0 } == 0)
        #expect(probe.deliveries.count == 1)
    }

    @Test func cancellingTheTaskDuringDecodingThrowsCancelled() async throws {
        let body = try [User].encoded(reaching: ConcurrentDecoding.threshold)
        let dispatcher = HeldAnswerDispatcher(body: body)
        let started = CallbackProbe<Int>()
        let released = CallbackProbe<Int>()
        let hold = DispatchSemaphore(value: 0)
        let request = ObservedDecode(
            during: {
                started.onSuccess(1)
                hold.wait()
            }, onRelease: { released.onSuccess(1) })
        let task = Task { try await request.execute(dispatcher: dispatcher).users.count }
        await waitUntil("the request is dispatched") { dispatcher.receivedRequests.count == 1 }
        dispatcher.answerAll()
        _ = await started.first()

        task.cancel()

        do {
            let count = try await task.value
            Issue.record("expected cancelled, got \(count) users")
        } catch let error as NetworkError {
            #expect(error.code == .cancelled)
        } catch { Issue.record(error) }
        hold.signal()
        _ = await released.first()
    }

    @Test func executeRefusesAnInvalidRequestBeforeAnyOtherDispatcherSeesIt() async throws {
        let dispatcher = HeldAnswerDispatcher(body: Data("[]".utf8))
        let probe = CallbackProbe<[User]>()

        Request<[User]>(.get("/users").header("X-Bad", "a\r\nb")).execute(
            dispatcher: dispatcher, callbackQueue: nil, onSuccess: probe.onSuccess, onError: probe.onError)

        #expect(probe.deliveries.count == 1)
        #expect(try await probe.failure().code == .invalidRequest)
        #expect(dispatcher.receivedRequests.isEmpty)
    }

    /// Waits until everything already queued on `queue` has run.
    private func flush(_ queue: DispatchQueue) async {
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
    }
}
