import Errand
import ErrandPolicies
import ErrandState
import ErrandSync
import ErrandTestSupport
import Foundation
import Testing

/// A sign-in takes time to store; what reaches `AuthState` meanwhile (an expiry of the session it
/// replaces, a sign-out) must leave the outcome the user asked for last.
@MainActor @Suite struct SignInInterleavingTests {
    @Test func anExpiryHeardWhileASignInIsStoredKeepsTheNewSession() async throws {
        // Given Ada signed in, and Bob's sign-in held in the storage's write
        let storage = HeldTokenStorage()
        let auth = AuthState(storage: storage)
        try await auth.logIn(tokens: TokenPair(accessToken: "ada"))
        let adaSession = storage.sessionGeneration
        storage.holdWrites()
        let bob = Task { try await auth.logIn(tokens: TokenPair(accessToken: "bob")) }
        await waitUntil("Bob's write is held") { storage.heldWrites == 1 }
        // When the expiry of Ada's session arrives, then the write goes through
        await Self.hear(ExpiredSession(generation: adaSession, reason: "refused"), in: auth)
        storage.releaseWrites()
        try await bob.value
        // Then Bob is signed in, with his tokens kept
        #expect(auth.isLoggedIn)
        #expect(try await storage.read()?.accessToken == "bob")
    }

    @Test func anExpiryHeardWhileAFailedSignInWasStoredStillSignsOut() async throws {
        // Given Ada signed in, and a sign-in whose write is held and will fail
        let storage = HeldTokenStorage()
        let auth = AuthState(storage: storage)
        try await auth.logIn(tokens: TokenPair(accessToken: "ada"))
        let adaSession = storage.sessionGeneration
        storage.holdWrites(failing: true)
        let bob = Task { try await auth.logIn(tokens: TokenPair(accessToken: "bob")) }
        await waitUntil("Bob's write is held") { storage.heldWrites == 1 }
        // When Ada's session expires meanwhile and the write fails
        await Self.hear(ExpiredSession(generation: adaSession, reason: "refused"), in: auth)
        storage.releaseWrites()
        await #expect(throws: NetworkError.self) { try await bob.value }
        // Then the expiry, put off, still ends Ada's session
        #expect(!auth.isLoggedIn)
        #expect(try await storage.read() == nil)
    }

    /// Reports `expired` to `auth`, which must take it at once: it waits for the sign-in being
    /// stored rather than for the storage, which that sign-in holds.
    private static func hear(_ expired: ExpiredSession, in auth: AuthState) async {
        let heard = Locked(false)
        Task { @MainActor in
            await auth.sessionDidExpire(expired)
            heard.withLock { $0 = true }
        }
        await waitUntil("the expiry is taken", rounds: 10_000) { heard.withLock { $0 } }
    }

    @Test func aSignOutDuringASignInWins() async throws {
        // Given Ada signed in, and Bob's sign-in held in the storage's write
        let storage = HeldTokenStorage()
        let auth = AuthState(storage: storage)
        try await auth.logIn(tokens: TokenPair(accessToken: "ada"))
        let events = auth.events()
        storage.holdWrites()
        let signIn = Task { try await auth.logIn(tokens: TokenPair(accessToken: "bob")) }
        await waitUntil("the write is held") { storage.heldWrites == 1 }
        // When the user signs out before it is stored
        let signOut = Task { try await auth.logout() }
        await waitUntil("the sign-out has begun") { !auth.isLoggedIn }
        storage.releaseWrites()
        let error = await #expect(throws: NetworkError.self) { try await signIn.value }
        try await signOut.value
        // Then the sign-in reports it lost, nothing of it is kept, and nobody was announced
        #expect(error?.code == .sessionEnded)
        #expect(!auth.isLoggedIn)
        #expect(try await storage.read() == nil)
        try await auth.logout()
        #expect(await AuthStateTests.first(2, of: events) == [.loggedOut, .loggedOut])
    }

    @Test func anExpiryNeverClearsASessionStoredSinceWithoutAuthState() async throws {
        // Given Ada's session, cleared by the auth policy, and Bob's tokens written directly
        let storage = InMemoryTokenStorage()
        let auth = AuthState(storage: storage)
        try await auth.logIn(tokens: TokenPair(accessToken: "ada"))
        let adaSession = storage.sessionGeneration
        try await storage.clear()
        try await storage.write(TokenPair(accessToken: "bob"))
        // When the expiry of Ada's session arrives
        await auth.sessionDidExpire(ExpiredSession(generation: adaSession, reason: "refused"))
        // Then Bob's tokens stay, and a second report of the same expiry changes nothing
        #expect(try await storage.read()?.accessToken == "bob")
        try await auth.restore()
        await auth.sessionDidExpire(ExpiredSession(generation: adaSession, reason: "refused"))
        #expect(auth.isLoggedIn)
    }

    @Test func fileStoragesOnLinkedPathsShareOneSession() async throws {
        // Given one token file reached through a folder and through a link to it
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        let link = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: folder)
        defer {
            try? FileManager.default.removeItem(at: link)
            try? FileManager.default.removeItem(at: folder)
        }
        let direct = FileTokenStorage(url: folder.appendingPathComponent("tokens.json"))
        let linked = FileTokenStorage(url: link.appendingPathComponent("tokens.json"))
        try await direct.write(TokenPair(accessToken: "ada"))
        let before = linked.sessionGeneration
        // When the user signs out through one of them
        let auth = AuthState(storage: linked)
        try await auth.logout()
        // Then the other names the same new session
        #expect(direct.sessionGeneration == linked.sessionGeneration)
        #expect(direct.sessionGeneration != before)
        #expect(try await direct.read() == nil)
    }
}

/// A token storage of the app's own whose writes can be held, to store a sign-in slowly.
final class HeldTokenStorage: TokenStorage {
    private struct State {
        var tokens: TokenPair?
        var holding = false
        var failing = false
        var held: [CheckedContinuation<Void, Never>] = []
    }
    struct WriteFailed: Error {}

    private let state = Locked(State())

    /// Writes from now on wait for ``releaseWrites()``; with `failing`, they then fail.
    func holdWrites(failing: Bool = false) {
        state.withLock {
            $0.holding = true
            $0.failing = failing
        }
    }

    /// Lets the held writes go on, and the ones after them straight through.
    func releaseWrites() {
        let held = state.withLock { state in
            state.holding = false
            defer { state.held.removeAll() }
            return state.held
        }
        for write in held { write.resume() }
    }

    /// How many writes wait.
    var heldWrites: Int { state.withLock { $0.held.count } }

    func read() async throws -> TokenPair? { state.withLock { $0.tokens } }

    func write(_ tokens: TokenPair) async throws {
        await withCheckedContinuation { continuation in
            let proceed = state.withLock { state in
                guard state.holding else { return true }
                state.held.append(continuation)
                return false
            }
            if proceed { continuation.resume() }
        }
        if state.withLock({ $0.failing }) { throw WriteFailed() }
        state.withLock { $0.tokens = tokens }
    }

    func clear() async throws {
        state.withLock { $0.tokens = nil }
    }
}
