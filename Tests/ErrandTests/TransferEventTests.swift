import ErrandSync
import Foundation
import Testing

@testable import Errand

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a delegate-driven transfer does with each event where the session raises it: it keeps
/// count, and hands back what must run where the caller's code may run, rather than running it.
@Suite struct TransferEventTests {
    /// A transfer with the given limit, and what its call delivered.
    static func transfer(limit: Int, reporting: Bool = false)
        -> (TrackedTransfer, Locked<[String]>)
    {
        let delivered = Locked<[String]>([])
        let call = SessionCall(
            request: .get("https://api.test/a"), deadline: .infinity,
            onSuccess: { response in delivered.withLock { $0.append("body \(response.body.count)") } },
            onError: { error in delivered.withLock { $0.append("\(error.code)") } })
        let reporter =
            reporting
            ? ProgressReporter(
                queue: nil,
                handler: { event in delivered.withLock { $0.append("progress \(event.completedBytes)") } })
            : nil
        return (TrackedTransfer(call: call, reporter: reporter, uploadTotal: 0, limit: limit), delivered)
    }

    /// A response announcing `length` bytes (-1: no length), as the session reports one.
    static func response(length: Int) -> URLResponse {
        URLResponse(
            url: URL(fileURLWithPath: "/a"), mimeType: "application/json", expectedContentLength: length,
            textEncodingName: nil)
    }

    @Test func chunksUnderTheLimitLeaveNothingToDoUntilTheEnd() throws {
        let (transfer, delivered) = Self.transfer(limit: 10)
        #expect(transfer.received(Self.response(length: 8)) == nil)
        #expect(transfer.received(Data(count: 4)) == nil)
        #expect(transfer.received(Data(count: 4)) == nil)
        #expect(delivered.withLock { $0 }.isEmpty)

        let end = try #require(
            HTTPURLResponse(
                url: URL(fileURLWithPath: "/a"), statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: ["Content-Length": "8"]))
        transfer.complete(response: end, error: nil)
        #expect(delivered.withLock { $0 } == ["body 8"])
    }

    @Test func aChunkPastTheLimitHandsBackTheFailureAndDropsTheBodyAtOnce() {
        let (transfer, delivered) = Self.transfer(limit: 10)
        _ = transfer.received(Self.response(length: -1))
        #expect(transfer.received(Data(count: 6)) == nil)

        // The chunk that crosses the limit: the failure is handed back, not delivered here.
        let failure = transfer.received(Data(count: 6))
        #expect(failure != nil)
        #expect(delivered.withLock { $0 }.isEmpty)
        // Later chunks are dropped and leave nothing more to do.
        #expect(transfer.received(Data(count: 6)) == nil)

        failure?()
        #expect(delivered.withLock { $0 } == ["responseTooLarge"])
    }

    @Test func anAnnouncedLengthPastTheLimitHandsBackTheFailure() {
        let (transfer, delivered) = Self.transfer(limit: 10)
        let refusal = transfer.received(Self.response(length: 11))
        #expect(refusal != nil)
        #expect(delivered.withLock { $0 }.isEmpty)
        refusal?()
        #expect(delivered.withLock { $0 } == ["responseTooLarge"])
    }

    @Test func progressIsHandedBackForTheCallersQueueNotReported() {
        let (transfer, delivered) = Self.transfer(limit: 100, reporting: true)
        _ = transfer.received(Self.response(length: 8))
        let report = transfer.received(Data(count: 4))
        #expect(delivered.withLock { $0 }.isEmpty)
        report?()
        #expect(delivered.withLock { $0 } == ["progress 4"])
    }

    #if canImport(FoundationNetworking)
        @Test func theSessionsQueueRunsEachEventBeforeAddingReturns() {
            let queue = InlineDelegateQueue()
            let ran = Locked<[Int]>([])
            for index in 0..<3 { queue.addOperation { ran.withLock { $0.append(index) } } }
            #expect(ran.withLock { $0 } == [0, 1, 2])
        }
    #endif
}
