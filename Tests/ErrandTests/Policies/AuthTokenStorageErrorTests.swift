import Errand
import ErrandPolicies
import ErrandSync
import ErrandTestSupport
import Foundation
import Testing

/// A token storage that fails reaches the request as `tokenStorage`, and the app can recover.
@Suite struct AuthTokenStorageErrorTests {
    typealias Counter = AuthenticatingDispatcherTests.Counter

    /// A storage whose reads or writes fail with an error of its own.
    final class FailingStorage: TokenStorage {
        struct Broken: Error {}
        let tokens: Locked<TokenPair?>
        let failsReads: Bool

        init(_ tokens: TokenPair?, failsReads: Bool) {
            self.tokens = Locked(tokens)
            self.failsReads = failsReads
        }

        func read() async throws -> TokenPair? {
            if failsReads { throw Broken() }
            return tokens.withLock { $0 }
        }

        func write(_ tokens: TokenPair) async throws { throw Broken() }

        func clear() async throws { tokens.withLock { $0 = nil } }
    }

    @Test func aCorruptTokenFileFailsTheRequestWithTokenStorageAndClearingRecovers() async throws {
        // Given a corrupt token file behind the policy
        let (url, folder) = try TokenStorageTests.file(containing: "not json")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = InMemoryDispatcher()
        server.stub(.get, "/me", response: .text("hello"))
        let storage = FileTokenStorage(url: url)
        let api = server.authenticating(storage: storage) { $0 }

        // When a request is sent
        do {
            _ = try await Request<String>(.get("/me")).execute(dispatcher: api)
            Issue.record("expected a token storage error")
        } catch let error as NetworkError {
            // Then it fails with tokenStorage, naming the file, and nothing was sent
            #expect(error.code == .tokenStorage)
            #expect(error.message.contains(url.path))
            #expect(error.request?.path == "/me")
            #expect(error.userMessage.contains("sign in again"))
        } catch {
            Issue.record("unexpected error: \(error)")
        }
        #expect(server.receivedRequests.isEmpty)

        // When the app clears the storage and signs in again, requests work
        try await storage.clear()
        try await storage.write(TokenPair(accessToken: "fresh"))
        #expect(try await Request<String>(.get("/me")).execute(dispatcher: api) == "hello")
        #expect(server.receivedRequests.last?.headers["Authorization"] == "Bearer fresh")
    }

    @Test func anyStorageReadFailureIsReportedAsTokenStorage() async throws {
        let server = InMemoryDispatcher()
        let api = server.authenticating(storage: FailingStorage(nil, failsReads: true)) { $0 }

        let error = await #expect(throws: NetworkError.self) {
            try await api.dispatch(.get("/me"))
        }

        #expect(error?.code == .tokenStorage)
        #expect(error?.underlyingError is FailingStorage.Broken)
    }

    @Test func newTokensThatCannotBeStoredFailWithTokenStorageAndKeepTheSession() async throws {
        // Given a storage that cannot be written, and a token the server refuses
        let expiries = Counter()
        let server = AuthenticatingDispatcherTests.server(accepting: "new")
        let storage = FailingStorage(TokenPair(accessToken: "old"), failsReads: false)
        let api = server.authenticating(
            storage: storage, refresh: { _ in TokenPair(accessToken: "new") },
            onSessionExpired: { _ in expiries.increment() })

        // When the refresh succeeds but its tokens cannot be stored
        let error = await #expect(throws: NetworkError.self) {
            try await api.dispatch(.get("/me"))
        }

        // Then the request says so, and the storage problem is not mistaken for an expiry
        #expect(error?.code == .tokenStorage)
        #expect(error?.message.contains("could not be written") == true)
        #expect(expiries.count == 0)
    }
}
