import Errand
import ErrandPolicies
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
/// - ``logIn(tokens:user:)`` over a signed-in user is an account switch
///   (``switchAccount(tokens:user:)``): the new tokens replace the old ones, `alsoClear` runs,
///   and ``AuthEvent/loggedOut`` then ``AuthEvent/loggedIn`` are emitted.
/// - Sign-out always wins: a token refresh still running when ``logout()`` is called never
///   stores its tokens, and a request of the old session still waiting fails with
///   `sessionEnded`. An expiry reported for a session this state already ended (or replaced) is
///   ignored, so a user who tapped "Sign out" never hears ``AuthEvent/sessionExpired`` after
///   ``AuthEvent/loggedOut``. See "Signing out and switching accounts" in the Errand docs.
///
/// Give it the same `TokenStorage` object as the auth policy. ``shared`` is a convenience; every
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
    /// The storage's session ledger, shared with every auth policy on the storage.
    @ObservationIgnored private let ledger: TokenLedger
    /// The oldest session of the storage whose expiry still concerns this state: every sign-in,
    /// sign-out and restore here moves it to the storage's session then, so an expiry of a
    /// session this state has ended or replaced is ignored. Generations only grow, so a session
    /// the app stored without this state (a later one) still counts.
    @ObservationIgnored private var floor: UInt64
    /// Sign-ins being stored: an expiry that arrives meanwhile waits for their outcome.
    @ObservationIgnored private var signingIn = 0
    /// Expiries that arrived while a sign-in was being stored.
    @ObservationIgnored private var deferred: [ExpiredSession] = []
    /// Counts sign-outs and expiries, so a sign-in stored across one knows it lost.
    @ObservationIgnored private var endings = 0

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
        self.ledger = TokenLedger.of(storage)
        self.floor = ledger.generation
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
    /// - Throws: `NetworkError` with code `tokenStorage` when the storage cannot be read;
    ///   `tokenStorageUnavailable` when it is out of reach for now (the keychain of a locked
    ///   device, a launch in the background before the first unlock): the stored sign-in is
    ///   kept, so call this again once the device is unlocked rather than asking for a sign-in.
    public func restore() async throws {
        do {
            // Signed out, but the clear failed: what the storage still holds is no session's.
            isLoggedIn = ledger.holdsEndedTokens ? false : try await storage.read() != nil
        } catch {
            throw Self.storageError("read", error)
        }
        floor = max(floor, ledger.generation)
    }

    /// Stores `tokens` as a new session, signs `user` in, and emits ``AuthEvent/loggedIn``.
    ///
    /// ``LoginViewModel`` calls this; call it yourself after a sign-in of your own. Over a
    /// signed-in user it is an account switch (``switchAccount(tokens:user:)``).
    ///
    /// - Parameters:
    ///   - tokens: The tokens the server issued.
    ///   - user: Who signed in, if the answer said.
    /// - Throws: `NetworkError` with code `tokenStorage` when the tokens cannot be stored, or
    ///   `tokenStorageUnavailable` when the storage is out of reach for now (a locked device's
    ///   keychain); the state then stays as it was. `sessionEnded` when ``logout()`` was called
    ///   before the sign-in finished: sign-out wins, and the tokens are not kept.
    public func logIn(tokens: TokenPair, user: (any Sendable)? = nil) async throws {
        try await logIn(tokens: tokens, user: user, while: { true })
    }

    /// ``logIn(tokens:user:)`` for a caller that may go away while the tokens are stored (a
    /// sign-in screen closed): when `isWanted` no longer holds once they are, nobody signs in.
    ///
    /// The tokens are cleared again; over a signed-in user, whose tokens they replaced, that is a
    /// sign-out (``AuthEvent/loggedOut``, `alsoClear`). Throws `cancelled` then.
    func logIn(tokens: TokenPair, user: (any Sendable)?, while isWanted: @MainActor () -> Bool) async throws {
        let switching = isLoggedIn
        let endingsBefore = endings
        signingIn += 1
        do {
            try await ledger.signIn(tokens, to: storage)
        } catch {
            await signInEnded(stored: false)
            throw Self.storageError("write", error)
        }
        guard endings == endingsBefore else {
            // Signed out while the tokens were stored: sign-out wins, whichever reached the
            // storage last, so the tokens go again.
            try? await ledger.signOut(storage)
            floor = max(floor, ledger.generation)
            await signInEnded(stored: false)
            throw Self.signedOutMeanwhile
        }
        floor = max(floor, ledger.generation)
        // An expiry of the session this one replaced, heard while it was stored, is now moot.
        await signInEnded(stored: true)
        guard isWanted() else {
            if switching {
                try? await end(with: .loggedOut)
            } else {
                try? await ledger.signOut(storage)
                floor = max(floor, ledger.generation)
            }
            throw Self.cancelledMeanwhile
        }
        if switching {
            // The previous user's state goes before the next user's session is announced.
            self.user = nil
            await alsoClear?()
            // A sign-out while the previous user's state was cleared has cleared the new tokens.
            guard endings == endingsBefore else { throw Self.signedOutMeanwhile }
            broadcast.send(.loggedOut)
        }
        isLoggedIn = true
        self.user = user
        broadcast.send(.loggedIn)
    }

    /// Replaces the signed-in user with another: stores `tokens` as a new session, runs
    /// `alsoClear`, and emits ``AuthEvent/loggedOut`` then ``AuthEvent/loggedIn``.
    ///
    /// Nothing of the previous session reaches the next: its requests still waiting fail with
    /// `sessionEnded`, its refresh in flight stores nothing, and caches keyed on the session
    /// answer it no more. Signed out, it is a plain ``logIn(tokens:user:)``.
    ///
    /// - Parameters:
    ///   - tokens: The new user's tokens.
    ///   - user: The new user, if known.
    /// - Throws: `NetworkError` with code `tokenStorage` or `tokenStorageUnavailable` when the
    ///   tokens cannot be stored; the previous user then stays signed in.
    public func switchAccount(tokens: TokenPair, user: (any Sendable)? = nil) async throws {
        try await logIn(tokens: tokens, user: user)
    }

    /// Signs out: forgets the user, clears the token storage and whatever `alsoClear` clears,
    /// and emits ``AuthEvent/loggedOut``.
    ///
    /// The state is signed out even when the storage fails to clear. The tokens left in it are
    /// then the ended session's: in this process, the auth policies on the storage send none
    /// and ``restore()`` finds none, until the next sign-in. They stay in the storage, though,
    /// and the next launch would find them: call `logout()` again once the storage can be
    /// reached (for `tokenStorageUnavailable`, once the device is unlocked).
    ///
    /// - Throws: `NetworkError` with code `tokenStorage`, or `tokenStorageUnavailable` for a
    ///   storage out of reach for now, when the storage could not be cleared.
    public func logout() async throws {
        try await end(with: .loggedOut)
    }

    /// Ends the current session because its tokens could not be renewed: clears the storage and
    /// what `alsoClear` clears, and emits ``AuthEvent/sessionExpired``.
    public func sessionDidExpire() async {
        try? await end(with: .sessionExpired)
    }

    /// Ends the session `expired` names, unless this state already ended or replaced it (a
    /// sign-out, or another user's sign-in, came first): then nothing happens.
    ///
    /// An expiry heard while a sign-in is being stored waits for it: the new session replaces
    /// the expired one, unless it could not be stored.
    ///
    /// - Parameter expired: The session the auth policy ended.
    public func sessionDidExpire(_ expired: ExpiredSession) async {
        guard signingIn == 0 else { return deferred.append(expired) }
        await expire(expired, afterFailedSignIn: false)
    }

    private func expire(_ expired: ExpiredSession, afterFailedSignIn: Bool) async {
        // An expiry from another ledger (a struct storage, one of the app's making) cannot be
        // placed, and is taken as it comes.
        if ledger.owns(expired), expired.generation < floor { return }
        // A sign-in that failed stored nothing, but moved the generation of a storage of the
        // app's own on: the storage still holds what it held when the expiry arrived.
        try? await end(with: .sessionExpired, ending: afterFailedSignIn ? nil : expired)
    }

    /// Takes the expiries heard while a sign-in was stored, once it has ended either way; one
    /// that stored its tokens has moved the floor past them.
    private func signInEnded(stored: Bool) async {
        signingIn -= 1
        guard signingIn == 0 else { return }
        let heard = deferred
        deferred.removeAll()
        for expired in heard { await expire(expired, afterFailedSignIn: !stored) }
    }

    /// The closure to pass as the auth policy's `onSessionExpired`.
    ///
    /// The policy calls it from any thread; it hops to the main actor and calls
    /// ``sessionDidExpire(_:)``, which ignores a session already ended here.
    public nonisolated var sessionExpiredHandler: @Sendable (ExpiredSession) -> Void {
        { [weak self] expired in
            Task { @MainActor in await self?.sessionDidExpire(expired) }
        }
    }

    /// Signs out here, clears the storage and `alsoClear`, and emits `event`. For an expiry the
    /// auth policy reported, the policy has cleared the storage already: it is cleared again only
    /// if it still holds that session (its clear failed), never a session stored since.
    private func end(with event: AuthEvent, ending expired: ExpiredSession? = nil) async throws {
        isLoggedIn = false
        user = nil
        endings += 1
        // The session ending now, and every older one, concern this state no more; a session
        // stored since the auth policy cleared an expired one still does.
        let ending = expired.flatMap { ledger.owns($0) ? $0.generation : nil } ?? ledger.generation
        floor = max(floor, ending &+ 1)
        var failure: NetworkError?
        let stillHeld = expired.map { !ledger.owns($0) || $0.generation == ledger.generation } ?? true
        do {
            if stillHeld { try await ledger.signOut(storage) }
        } catch {
            failure = Self.storageError("clear", error)
        }
        floor = max(floor, ledger.generation)
        await alsoClear?()
        broadcast.send(event)
        if let failure { throw failure }
    }

    private static let cancelledMeanwhile = NetworkError(
        code: .cancelled,
        message: "The sign-in was cancelled while its tokens were stored; they were not kept.")

    private static let signedOutMeanwhile = NetworkError(
        code: .sessionEnded, message: "Signed out before the sign-in finished; the tokens were not kept.")

    private static func storageError(_ operation: String, _ error: any Error) -> NetworkError {
        // Kept as it is, so that its code (and its user message) does not ask to sign in again.
        if let error = error as? NetworkError, error.code == .tokenStorageUnavailable { return error }
        return NetworkError(
            code: .tokenStorage, message: "The token storage could not \(operation) the tokens: \(error)",
            underlyingError: error)
    }
}
