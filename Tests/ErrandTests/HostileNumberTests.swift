import Errand
import ErrandPolicies
import ErrandSync
import ErrandTestSupport
import Foundation
import Testing

/// Configured and received numbers that are infinite, NaN, negative or too large for the
/// machine: each is clamped, refused or saturated, and none stops the process. (At 8971c84,
/// the tests marked "trapped" stopped the whole test process.)
@Suite struct HostileNumberTests {
    static let fixedNow: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_700_000_000) }

    @Test(arguments: [Double.infinity, 1e300, .nan, -1, 0, 60])
    func aRefreshLimitWithAnyWindowEndsTheLoopInsteadOfTheProcess(window: Double) async throws {
        // Given a server that refuses every token, and a limit of 2 refused refreshes
        // (trapped for .infinity, 1e300 and NaN; looped forever for -1 and 0)
        let refreshes = Locked(0)
        let server = InMemoryDispatcher()
        server.stub(.get, "/me", response: .status(401))
        let dispatcher = server.authenticating(
            storage: InMemoryTokenStorage(TokenPair(accessToken: "t0")),
            refresh: { _ in
                TokenPair(
                    accessToken: "t"
                        + String(
                            refreshes.withLock {
                                $0 += 1
                                return $0
                            }))
            },
            maximumRefreshes: 2, within: window, now: Self.fixedNow)

        // When requests keep meeting 401s
        for _ in 0..<2 { #expect(try await dispatcher.dispatch(.get("/me")).statusCode == 401) }
        let error = await #expect(throws: NetworkError.self) { try await dispatcher.dispatch(.get("/me")) }

        // Then the limit ends the session, with a message that reads
        #expect(error?.code == .sessionExpired)
        let message = try #require(error?.message)
        #expect(message.contains("2 token refreshes"))
        #expect(message.contains(window == 60 ? "within 60 s" : "in a row"), "\(message)")
    }

    #if compiler(>=6.2) && (os(Linux) || os(macOS))  // exit tests: Swift Testing in Swift 6.2
        @Test func anEndlessRefreshWindowLeavesTheProcessRunning() async {
            // Given the case as reported: a limit of 2 refreshes within .infinity, in a process of
            // its own (at 8971c84 it exits on a signal: "Double value cannot be converted to Int")
            await #expect(processExitsWith: .success) {
                let server = InMemoryDispatcher()
                server.stub(.get, "/me", response: .status(401))
                let dispatcher = server.authenticating(
                    storage: InMemoryTokenStorage(TokenPair(accessToken: "t0")),
                    refresh: { _ in TokenPair(accessToken: UUID().uuidString) },
                    maximumRefreshes: 2, within: .infinity)

                // When the limit is reached, Then the session ends with an error, not the process
                for _ in 0..<2 { _ = try? await dispatcher.dispatch(.get("/me")) }
                do {
                    _ = try await dispatcher.dispatch(.get("/me"))
                } catch let error as NetworkError where error.code == .sessionExpired {
                    return
                } catch {}
                exit(1)
            }
        }
    #endif

    @Test(arguments: [
        (
            RetryPolicy.Backoff(base: .zero, multiplier: .infinity, maximum: .seconds(30), jitter: .none), 2,
            0.5
        ),
        (
            RetryPolicy.Backoff(base: .seconds(1), multiplier: .nan, maximum: .seconds(30), jitter: .none), 3,
            0.5
        ),
        (
            RetryPolicy.Backoff(base: .seconds(1), multiplier: 1e300, maximum: .seconds(30), jitter: .none),
            9, 0.5
        ),
        (
            RetryPolicy.Backoff(base: .seconds(1), multiplier: 2, maximum: .seconds(30), jitter: .full), 10,
            .infinity
        ),
        (RetryPolicy.Backoff(base: .seconds(1), multiplier: 2, maximum: .seconds(30), jitter: .equal), 10, 7),
    ])
    func aBackoffThatWouldBeNaNOrInfiniteIsItsMaximum(
        backoff: RetryPolicy.Backoff, retry: Int, random: Double
    ) {
        // Given a backoff whose growth or jitter is NaN or infinite (trapped)
        // When a delay is computed, Then it is the maximum
        #expect(backoff.delay(beforeRetry: retry, random: random) == .seconds(30))
    }

    @Test func aBackoffWithHostileNumbersStillGivesAWaitableDelay() {
        // Given backoffs at the edges of Int, Double and Duration (trapped: overflow, NaN)
        let huge = RetryPolicy.Backoff(
            base: .seconds(Int64.max), multiplier: 2, maximum: .seconds(Int64.max), jitter: .none)
        let usual = RetryPolicy.Backoff(jitter: .full)

        // Then each delay is finite, within some 32 million years, and a NaN random is no jitter
        #expect(huge.delay(beforeRetry: 3, random: 0) == .seconds(1_000_000_000_000_000))
        #expect(usual.delay(beforeRetry: .min, random: 1) == .milliseconds(500))
        #expect(usual.delay(beforeRetry: .max, random: 1) == .seconds(30))
        #expect(usual.delay(beforeRetry: 2, random: .nan) == .zero)
        #expect(usual.delay(beforeRetry: 2, random: -5) == .zero)
    }

    @Test func aHugeBackoffWaitsOnARealClockUntilCancelled() async throws {
        // Given a backoff of Int64.max seconds, on the continuous clock (trapped: a deadline
        // past Int64 seconds)
        let clock = WatchedClock()
        let server = InMemoryDispatcher()
        server.stub(.get, "/x", responses: [.status(503), .status(200)])
        let policy = RetryPolicy(
            backoff: .init(
                base: .seconds(Int64.max), multiplier: 2, maximum: .seconds(Int64.max), jitter: .none))
        let probe = CallbackProbe<NetworkResponse>()
        let call = server.retrying(policy, clock: clock).dispatch(
            request: .get("/x"), onSuccess: probe.onSuccess, onError: probe.onError)

        // When the wait has begun, and is cancelled
        await clock.waitForSleeps()
        call.cancel()

        // Then the request ends as cancelled, having been sent once
        #expect(try await probe.failure().code == .cancelled)
        #expect(server.receivedRequests.count == 1)
    }

    @Test func aRetryAfterTooLargeForTheMachineIsTooLongNotAbsent() async throws {
        // Given a server asking to retry after 10^20 seconds, past Int (read as absent, and
        // retried at once by the backoff)
        let server = InMemoryDispatcher()
        server.stub(
            .get, "/x",
            responses: [.status(503, headers: ["Retry-After": "99999999999999999999"]), .status(200)])
        let dispatcher = server.retrying(.default, clock: RecordingClock(), now: Self.fixedNow)

        // When the request is sent
        let response = try await dispatcher.dispatch(.get("/x"))

        // Then it is longer than any maximum: no retry
        #expect(response.statusCode == 503)
        #expect(server.receivedRequests.count == 1)
    }

    @Test func aRetryAfterTooLargeForTheMachineIsWaitedAs2To31Seconds() async throws {
        // Given a policy that honours any Retry-After, and a server asking for 10^20 seconds
        let clock = ManualClock()
        let delays = Locked<[Duration]>([])
        let server = InMemoryDispatcher()
        server.stub(
            .get, "/x",
            responses: [.status(503, headers: ["Retry-After": "99999999999999999999"]), .status(200)])
        let policy = RetryPolicy(
            maximumRetryAfter: .seconds(Int64.max),
            onRetry: { event in delays.withLock { $0.append(event.delay) } })
        let probe = CallbackProbe<NetworkResponse>()
        server.retrying(policy, clock: clock, now: Self.fixedNow).dispatch(
            request: .get("/x"), onSuccess: probe.onSuccess, onError: probe.onError)

        // When the wait has passed
        await clock.waitForSleepers()
        clock.advance(by: .seconds(2_147_483_648))

        // Then it was clamped as the cache clamps delta-seconds, and the retry went out
        #expect(try await probe.first().get().statusCode == 200)
        #expect(delays.withLock { $0 } == [.seconds(2_147_483_648)])
    }

    @Test(arguments: [(Double.nan, 200), (.infinity, 200), (1e300, 200), (-.infinity, 503)])
    func aRetryAfterDateIsReadWhateverTheInjectedClockSays(seconds: Double, status: Int) async throws {
        // Given a clock that says NaN or infinity, and a two-digit-year date (whose century is
        // placed from now: trapped for NaN and infinity)
        let server = InMemoryDispatcher()
        server.stub(
            .get, "/x",
            responses: [
                .status(503, headers: ["Retry-After": "Sunday, 06-Nov-94 08:49:37 GMT"]), .status(200),
            ])
        let clock = RecordingClock()
        let dispatcher = server.retrying(
            .default, clock: clock, now: { Date(timeIntervalSince1970: seconds) })

        // When the request is sent, Then it is retried at once (the date is in the past or not
        // comparable), or not at all when the date is endlessly far ahead
        #expect(try await dispatcher.dispatch(.get("/x")).statusCode == status)
        #expect(clock.sleeps.allSatisfy { $0 == .zero })
    }

    @Test func aNaNLifetimeIsUnknownAndAnInfiniteOneIsStoredAsTheDistantFuture() async throws {
        // Given lifetimes a token endpoint or an app may give (NaN trapped when described)
        let now = Self.fixedNow()
        let unknown = TokenPair(accessToken: "a", expiresIn: .nan, now: now)
        let endless = TokenPair(accessToken: "a", expiresIn: .infinity, now: now)
        let ancient = TokenPair(accessToken: "a", expiresIn: -1e300, now: now)

        // Then NaN is no expiry, and the others are dates a storage can keep (the file storage
        // refused an infinite date before)
        #expect(unknown.expiresAt == nil)
        #expect(endless.expiresAt == .distantFuture)
        #expect(ancient.expiresAt == .distantPast)
        #expect(
            TokenPair(accessToken: "a", expiresAt: Date(timeIntervalSinceReferenceDate: .nan)).description
                .contains("NaN"))
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "errand-hostile-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let storage = FileTokenStorage(url: folder.appending(path: "tokens.json"))
        try await storage.write(endless)
        #expect(try await storage.read() == endless)
    }

    @Test(arguments: ["nan", "inf", "-inf", "infinity", "1e400"])
    func aTokenEndpointsLifetimeThatIsNoNumberOfSecondsIsRefused(text: String) {
        // Given an answer whose expires_in reads as a Double but is not finite
        let json = Data(#"{"access_token": "a", "expires_in": "\#(text)"}"#.utf8)

        // When it is decoded, Then it is refused as data, not stored as a NaN or endless date
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(OAuthTokenResponse.self, from: json) }
    }
}
