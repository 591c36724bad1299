#if !canImport(Security)
    import Errand
    import ErrandTestSupport
    import Foundation
    import Testing

    /// Where FoundationNetworking cannot show the server's certificates, a dispatcher with pins
    /// refuses requests to pinned hosts before connecting: it fails closed.
    @Suite struct PinningLinuxTests {
        static let pins = [Data(repeating: 1, count: 32), Data(repeating: 2, count: 32)].map {
            $0.base64EncodedString()
        }

        @Test func refusesAPinnedHostBeforeAnyConnection() async throws {
            // Given a listener, pinned under the name "localhost" but not under "127.0.0.1"
            let listener = try CountingListener()
            defer { listener.stop() }
            let dispatcher = URLSessionDispatcher(pinning: try PublicKeyPins(["localhost": Self.pins]))

            // When a request goes to the pinned name, and then one to the unpinned address
            let refused = CallbackProbe<NetworkResponse>()
            dispatcher.dispatch(
                request: .get("http://localhost:\(listener.port)/pinned"), onSuccess: refused.onSuccess,
                onError: refused.onError)
            let error = try await refused.failure()
            let response = try await dispatcher.dispatch(.get("http://127.0.0.1:\(listener.port)/unpinned"))

            // Then the first fails with `pinning`, naming the host and the platform, and never arrived
            #expect(error.code == .pinning)
            #expect(error.message.contains("localhost"))
            #expect(error.message.contains("unavailable on this platform"))
            #expect(refused.deliveries.count == 1)
            #expect(response.statusCode == 200)
            #expect(listener.requestLines == ["GET /unpinned HTTP/1.1"])
        }

        @Test func aProgressRequestToAPinnedHostIsRefusedToo() async throws {
            // Given a dispatcher that pins the listener's host
            let listener = try CountingListener()
            defer { listener.stop() }
            let dispatcher = URLSessionDispatcher(pinning: try PublicKeyPins(["127.0.0.1": Self.pins]))
            let probe = CallbackProbe<NetworkResponse>()

            // When a request with progress is sent there
            dispatcher.dispatch(
                request: .get("http://127.0.0.1:\(listener.port)/pinned"), progressQueue: nil,
                progress: { _ in },
                onSuccess: probe.onSuccess, onError: probe.onError)

            // Then it is refused as well
            #expect(try await probe.failure().code == .pinning)
            #expect(listener.requestLines.isEmpty)
        }

        @Test(arguments: ["bücher.example", "BÜCHER.example.", "xn--bcher-kva.example"])
        func aRequestToAPinnedUnicodeHostIsRefusedWhateverTheSpelling(pinned: String) async throws {
            // Given pins for bücher.example, written one way
            let dispatcher = URLSessionDispatcher(pinning: try PublicKeyPins([pinned: Self.pins]))

            for url in [
                "https://bücher.example/", "https://xn--bcher-kva.example/", "https://BÜCHER.example./",
            ] {
                // When a request goes there, spelled another way
                let error = await #expect(throws: NetworkError.self, "\(url)") {
                    try await dispatcher.dispatch(.get(url))
                }

                // Then it is refused before any connection, not sent unpinned
                #expect(error?.code == .pinning, "\(url)")
            }
        }

        @Test(arguments: ["[::1]", "::1", "[0:0::1]"])
        func aRequestToAPinnedIPv6LiteralIsRefused(pinned: String) async throws {
            // Given pins for the IPv6 loopback address
            let dispatcher = URLSessionDispatcher(pinning: try PublicKeyPins([pinned: Self.pins]))

            // When a request goes there, Then it is refused with `pinning`, naming the address
            let error = await #expect(throws: NetworkError.self) {
                try await dispatcher.dispatch(.get("http://[0:0:0:0:0:0:0:1]:9/pinned"))
            }
            #expect(error?.code == .pinning)
            #expect(error?.message.contains("0:0:0:0:0:0:0:1") == true)
        }

        @Test(arguments: ["127.1", "2130706433", "0x7f.0.0.1"])
        func anotherSpellingOfAPinnedAddressDoesNotReachIt(spelling: String) async throws {
            // Given a listener on 127.0.0.1, pinned under that address
            let listener = try CountingListener()
            defer { listener.stop() }
            let dispatcher = URLSessionDispatcher(pinning: try PublicKeyPins(["127.0.0.1": Self.pins]))

            // When a request names the address another way a resolver reads
            let error = await #expect(throws: NetworkError.self) {
                try await dispatcher.dispatch(.get("http://\(spelling):\(listener.port)/pinned"))
            }

            // Then it is refused, and nothing reached the listener
            #expect(error?.code == .pinning)
            #expect(listener.requestLines.isEmpty)
        }

        @Test(.enabled(if: LiveServer.httpbinAvailable, LiveServer.skipReason))
        func aRedirectToAPinnedHostIsRefusedNotFollowed() async throws {
            // Given httpbin (unpinned, on 127.0.0.1) and a listener pinned as "localhost"
            let httpbin = try LiveServer.require(LiveServer.httpbin, "ERRAND_HTTPBIN_URL")
            let listener = try CountingListener()
            defer { listener.stop() }
            let dispatcher = URLSessionDispatcher(
                baseURL: httpbin, pinning: try PublicKeyPins(["localhost": Self.pins]))

            // When httpbin redirects there
            let error = await #expect(throws: NetworkError.self) {
                try await dispatcher.dispatch(
                    .get("/redirect-to").query("url", "http://localhost:\(listener.port)/pinned"))
            }
            let unpinned = try await dispatcher.dispatch(.get("http://127.0.0.1:\(listener.port)/unpinned"))

            // Then the redirect is refused with `pinning`, and only the later request reached the listener
            #expect(error?.code == .pinning)
            #expect(unpinned.statusCode == 200)
            #expect(listener.requestLines == ["GET /unpinned HTTP/1.1"])
        }

        @Test(.enabled(if: LiveServer.httpbinAvailable, LiveServer.skipReason))
        func unpinnedHostsStillWork() async throws {
            // Given a dispatcher that pins some other host
            let httpbin = try LiveServer.require(LiveServer.httpbin, "ERRAND_HTTPBIN_URL")
            let dispatcher = URLSessionDispatcher(
                baseURL: httpbin, pinning: try PublicKeyPins(["api.example.com": Self.pins]))

            // When it sends to httpbin, Then the request goes through
            let response = try await dispatcher.dispatch(.get("/bytes/2048"))
            #expect(response.statusCode == 200)
            #expect(response.body.count == 2048)
        }
    }
#endif
