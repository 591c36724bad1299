import Errand
import ErrandTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `URLSessionDispatcher.maximumResponseSize`, live against the fault server: a body over the
/// limit fails with `responseTooLarge` whether its length is announced or not; a body at the
/// limit arrives whole.
@Suite(.enabled(if: LiveServer.faultAvailable, LiveServer.skipReason))
struct URLSessionDispatcherSizeLimitLiveTests {
    let server: URL

    init() throws {
        server = try LiveServer.require(LiveServer.fault, "ERRAND_FAULT_URL")
    }

    @Test func theDefaultLimitIsSixteenMebibytes() {
        // Given a dispatcher built with the defaults
        let dispatcher = URLSessionDispatcher(baseURL: server)

        // Then its limit is the documented default
        #expect(dispatcher.maximumResponseSize == 16 * 1_048_576)
        #expect(URLSessionDispatcher.defaultMaximumResponseSize == dispatcher.maximumResponseSize)
    }

    @Test(arguments: ["0", "1"])
    func aBodyOverAConfiguredLimitFailsOnce(chunked: String) async throws {
        // Given a limit of 1 MiB
        let dispatcher = URLSessionDispatcher(baseURL: server, maximumResponseSize: 1_048_576)
        let probe = CallbackProbe<NetworkResponse>()

        // When a 2 MiB body comes, announced or chunked
        dispatcher.dispatch(
            request: .get("/huge").query("mb", "2").query("chunked", chunked), onSuccess: probe.onSuccess,
            onError: probe.onError)

        // Then the request fails with responseTooLarge, naming the limit
        let error = try await probe.failure()
        #expect(error.code == .responseTooLarge)
        #expect(error.description.contains("1048576 bytes"))
        #expect(error.userMessage == "The server's answer was too large to load.")
        _ = try await dispatcher.dispatch(.get("/json"))
        #expect(probe.deliveries.count == 1)
    }

    @Test(arguments: ["0", "1"])
    func aBodyExactlyAtTheLimitArrivesWhole(chunked: String) async throws {
        // Given a limit of exactly 1 MiB
        let dispatcher = URLSessionDispatcher(baseURL: server, maximumResponseSize: 1_048_576)

        // When a 1 MiB body comes
        let response = try await dispatcher.dispatch(.get("/huge").query("mb", "1").query("chunked", chunked))

        // Then all of it arrives
        #expect(response.body.count == 1_048_576)
    }

    @Test func progressRequestsHoldTheLimitToo() async throws {
        // Given a limit of 1 MiB and a request that reports progress
        let dispatcher = URLSessionDispatcher(baseURL: server, maximumResponseSize: 1_048_576)
        let probe = CallbackProbe<NetworkResponse>()

        // When a 2 MiB chunked body comes
        dispatcher.dispatch(
            request: .get("/huge").query("mb", "2").query("chunked", "1"), progressQueue: nil,
            progress: { _ in }, onSuccess: probe.onSuccess, onError: probe.onError)

        // Then it fails with responseTooLarge
        let error = try await probe.failure()
        #expect(error.code == .responseTooLarge)
    }

    @Test func aCallersSessionIsCheckedWhenTheBodyIsComplete() async throws {
        // Given a dispatcher on a session of the caller's, with a limit of 1 MiB
        let session = URLSession(configuration: URLSessionDispatcher.defaultConfiguration())
        defer { session.finishTasksAndInvalidate() }
        let dispatcher = URLSessionDispatcher(
            baseURL: server, session: session, maximumResponseSize: 1_048_576)

        // When a 2 MiB body comes
        do {
            _ = try await dispatcher.dispatch(.get("/huge").query("mb", "2"))
            Issue.record("expected responseTooLarge")
        } catch let error as NetworkError {
            // Then it fails with responseTooLarge all the same
            #expect(error.code == .responseTooLarge)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
