import Errand
import ErrandTestSupport
import Foundation
import Testing

/// `URLSessionDispatcher` against faults that httpbin cannot produce, from `Tests/Support/fault_server.py`.
@Suite(.enabled(if: LiveServer.faultAvailable, LiveServer.skipReason))
struct URLSessionDispatcherFaultTests {
    let dispatcher: URLSessionDispatcher

    init() throws {
        dispatcher = URLSessionDispatcher(
            baseURL: try LiveServer.require(LiveServer.fault, "ERRAND_FAULT_URL"))
    }

    @Test func aSilentServerTimesOut() async throws {
        await expectFailure(.timedOut, for: .get("/silence").timeout(1))
    }

    @Test func theDeadlineBoundsTheWholeRequestNotJustIdleTime() async throws {
        // 40 bytes, one every 0.25 s: never idle, but 10 s in all. Without the deadline the
        // request would succeed after 10 s; `timedOut` shows the deadline won.
        await expectFailure(
            .timedOut, for: .get("/drip").query("bytes", "40").query("interval", "0.25").timeout(1.5))
    }

    @Test func aShortDeadlineFiresOnTimeBehindALongerOne() async throws {
        let long = CallbackProbe<NetworkResponse>()
        let call = dispatcher.dispatch(
            request: .get("/silence").timeout(600), onSuccess: long.onSuccess, onError: long.onError)
        // A timer armed only for the first deadline would hold the short request until the
        // server gives up on the long one (after 120 s, an empty reply): the short one would then
        // fail as a transport error, after the long one had ended.
        await expectFailure(.timedOut, for: .get("/silence").timeout(1))
        #expect(long.deliveries.isEmpty)
        call.cancel()
        let error = try await long.failure()
        #expect(error.code == .cancelled)
    }

    @Test func aTruncatedBodyIsATransportError() async throws {
        await expectFailure(.transport, for: .get("/truncated"))
    }

    @Test func aConnectionResetIsATransportErrorKeepingTheURLError() async throws {
        let error = await expectFailure(.transport, for: .get("/reset"))
        #expect(error?.underlyingError is URLError)
    }

    @Test func aGarbageStatusLineIsATransportError() async throws {
        await expectFailure(.transport, for: .get("/garbage-status"))
    }

    @Test func aRefusedConnectionIsATransportError() async throws {
        let closed = URLSessionDispatcher(baseURL: URL(string: "http://127.0.0.1:9"))
        do {
            _ = try await closed.dispatch(.get("/x"))
            Issue.record("expected a transport error")
        } catch let error as NetworkError {
            #expect(error.code == .transport)
        } catch { Issue.record(error) }
    }

    @Test func aBasicChallengeComesBackAsA401Promptly() async throws {
        // Left to default handling this would hang until the 20 s deadline and fail as timedOut.
        let response = try await dispatcher.dispatch(.get("/basic-challenge").timeout(20))
        #expect(response.statusCode == 401)
        #expect(response.headers["WWW-Authenticate"] == #"Basic realm="errand""#)
    }

    @Test func aLargeBodyArrivesWhole() async throws {
        let data = try await Request<Data>(.get("/huge").query("mb", "8")).execute(dispatcher: dispatcher)
        #expect(data.count == 8 * 1_048_576)
    }

    @discardableResult
    private func expectFailure(
        _ code: NetworkError.Code, for request: RequestData, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> NetworkError? {
        do {
            let response = try await dispatcher.dispatch(request)
            Issue.record("expected \(code), got \(response)", sourceLocation: sourceLocation)
            return nil
        } catch let error as NetworkError {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            return error
        } catch {
            Issue.record(error, sourceLocation: sourceLocation)
            return nil
        }
    }
}
