import Errand
import Observation

/// Whether someone is signed in, who, and what happens to the session: the app-wide auth state.
///
/// ```swift
/// let auth = AuthState(storage: tokens, alsoClear: { await imageCache.removeAll() })
/// let api = URLSessionDispatcher(baseURL: base)
///     .authenticating(storage: tokens, refresh: refreshTokens,
///                     onSessionExpired: auth.sessionExpiredHandler)   // one line
/// for await event in auth.events() { … }                            // .loggedIn, .loggedOut, .sessionExpired
/// try await auth.logout()                                            // clears tokens and caches
/// ```
///
/// - ``isLoggedIn`` and ``user`` are observable; ``restore()`` reads the storage at launch.
/// - ``events()`` gives each caller a stream of its own, so any number of listeners each see
///   every event.
/// - ``logout()`` clears the token storage and runs the `alsoClear` hook (an HTTP cache, images,
///   a database); ``sessionExpiredHandler`` connects the auth policy, whose expiry then signs
///   out here too.
///
/// Give it the same `TokenStorage` as the auth policy. ``shared`` is a convenience; every
/// view model takes the instance to use, so an app or a test can inject its own.
/// Observable; main-actor isolated, and so `Sendable`.
@Observable @MainActor
public final class AuthState {
    /// Whether someone is signed in.
    public private(set) var isLoggedIn = false
    /// The signed-in user, as the login step extracted it; `nil` when signed out or unknown.
    public private(set) var user: (any Sendable)?

    /// Where the tokens are kept: the same storage the auth policy reads.
    @ObservationIgnored public let storage: any TokenStorage
    @ObservationIgnored private let alsoClear: (@Sendable () async -> Void)?
    @ObservationIgnored private let broadcast = EventBroadcast<AuthEvent>()

    /// The instance to use when an app wires nothing else: tokens kept in memory.
    ///
    /// Replace it at launch with one on your storage, or inject your own instance instead.
    public static var shared = AuthState(storage: InMemoryTokenStorage())

    /// Creates an auth state.
    ///
    /// - Parameters:
    ///   - storage: Where the tokens are kept; give the auth policy the same one.
    ///   - alsoClear: What else to clear on sign-out and on an expired session, such as an
    ///     HTTP cache.
    public init(storage: any TokenStorage, alsoClear: (@Sendable () async -> Void)? = nil) {
        self.storage = storage
        self.alsoClear = alsoClear
    }

    /// The signed-in user as `User`, or `nil` when signed out or of another type.
    ///
    /// - Parameter type: The user type the login step produced.
    /// - Returns: The user.
    public func user<User>(as type: User.Type) -> User? {
        user as? User
    }

    /// A new stream of the events from now on; every caller gets its own, with every event.
    ///
    /// The stream ends when the loop that reads it ends or its task is cancelled.
    public nonisolated func events() -> AsyncStream<AuthEvent> {
        broadcast.stream()
    }

    /// Marks the session as signed in when the storage holds tokens, for the app's launch.
    ///
    /// Emits no event: nothing changed, the app only learnt where it stands.
    ///
    /// - Throws: `NetworkError` with code `tokenStorage` when the storage cannot be read.
    public func restore() async throws {
        do {
            isLoggedIn = try await storage.read() != nil
        } catch {
            throw Self.storageError("read", error)
        }
    }

    /// Stores `tokens`, signs `user` in, and emits ``AuthEvent/loggedIn``.
    ///
    /// ``LoginViewModel`` calls this; call it yourself after a sign-in of your own.
    ///
    /// - Parameters:
    ///   - tokens: The tokens the server issued.
    ///   - user: Who signed in, if the answer said.
    /// - Throws: `NetworkError` with code `tokenStorage` when the tokens cannot be stored; the
    ///   state then stays signed out.
    public func logIn(tokens: TokenPair, user: (any Sendable)? = nil) async throws {
        do {
            try await storage.write(tokens)
        } catch {
            throw Self.storageError("write", error)
        }
        isLoggedIn = true
        self.user = user
        broadcast.send(.loggedIn)
    }

    /// Signs out: forgets the user, clears the token storage and whatever `alsoClear` clears,
    /// and emits ``AuthEvent/loggedOut``.
    ///
    /// The state is signed out even when the storage fails to clear.
    ///
    /// - Throws: `NetworkError` with code `tokenStorage` when the storage could not be cleared.
    public func logout() async throws {
        try await end(with: .loggedOut)
    }

    /// Ends the session because the tokens could not be renewed, and emits
    /// ``AuthEvent/sessionExpired``. The auth policy's hook calls this through
    /// ``sessionExpiredHandler``.
    public func sessionDidExpire() async {
        try? await end(with: .sessionExpired)
    }

    /// The closure to pass as the auth policy's `onSessionExpired`.
    ///
    /// The policy calls it from any thread; it hops to the main actor and calls
    /// ``sessionDidExpire()``.
    public nonisolated var sessionExpiredHandler: @Sendable () -> Void {
        { [weak self] in
            Task { @MainActor in await self?.sessionDidExpire() }
        }
    }

    private func end(with event: AuthEvent) async throws {
        isLoggedIn = false
        user = nil
        var failure: NetworkError?
        do {
            try await storage.clear()
        } catch {
            failure = Self.storageError("clear", error)
        }
        await alsoClear?()
        broadcast.send(event)
        if let failure { throw failure }
    }

    private static func storageError(_ operation: String, _ error: any Error) -> NetworkError {
        NetworkError(
            code: .tokenStorage, message: "The token storage could not \(operation) the tokens: \(error)",
            underlyingError: error)
    }
}
