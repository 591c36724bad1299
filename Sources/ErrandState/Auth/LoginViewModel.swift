import Errand
import ErrandPolicies
import Observation

/// A view model for a sign-in screen: sends the credentials, stores the tokens, signs in.
///
/// ```swift
/// let login = LoginViewModel(
///     auth: auth, dispatcher: api,
///     request: { (form: Credentials) in SignIn(form) },
///     tokens: { answer in TokenPair(accessToken: answer.accessToken, refreshToken: answer.refreshToken) },
///     user: { answer in answer.user })
/// login.submit(Credentials(email: email, password: password))
/// ```
///
/// Submitting sends the request; from its answer the `tokens` step takes the `TokenPair` and
/// the `user` step the user. ``AuthState/logIn(tokens:user:)`` then writes the tokens to the
/// auth state's storage (the one the auth policy reads), signs in, and emits
/// ``AuthEvent/loggedIn``. Any failure lands in ``error``: the request's, `decoding` when a step
/// throws, `tokenStorage` when the tokens cannot be stored. A submit while one runs is refused.
///
/// Releasing the view model (the sign-in sheet was closed) cancels its sign-in: the request is
/// cancelled, and an answer that arrives anyway signs nobody in.
/// Observable; main-actor isolated, and so `Sendable`.
@Observable @MainActor
public final class LoginViewModel<Credentials, Answer: Sendable> {
    /// Whether a sign-in is running.
    public private(set) var isSubmitting = false
    /// Why the last sign-in failed; cleared when the next one starts.
    public private(set) var error: NetworkError?

    /// The auth state this screen signs in to.
    @ObservationIgnored public let auth: AuthState
    @ObservationIgnored private let send: @MainActor (Credentials) async throws -> Answer
    @ObservationIgnored private let tokens: @Sendable (Answer) throws -> TokenPair
    @ObservationIgnored private let user: @Sendable (Answer) throws -> (any Sendable)?
    @ObservationIgnored private let work = WorkSlot()

    /// Creates a sign-in view model that runs `send` for the credentials.
    ///
    /// - Parameters:
    ///   - auth: The auth state to sign in to; it holds the token storage.
    ///   - send: Sends the credentials and returns the server's answer.
    ///   - tokens: Takes the token pair from the answer.
    ///   - user: Takes the user from the answer; none by default.
    public init(
        auth: AuthState, send: @escaping @MainActor (Credentials) async throws -> Answer,
        tokens: @escaping @Sendable (Answer) throws -> TokenPair,
        user: @escaping @Sendable (Answer) throws -> (any Sendable)? = { _ in nil }
    ) {
        self.auth = auth
        self.send = send
        self.tokens = tokens
        self.user = user
    }

    /// Creates a sign-in view model that sends the request `makeRequest` builds.
    ///
    /// - Parameters:
    ///   - auth: The auth state to sign in to; it holds the token storage.
    ///   - dispatcher: What sends the request; `DefaultDispatcher.current` (read now) by
    ///     default. Mark the request `.authentication(.none)` if it goes through the auth policy.
    ///   - makeRequest: Builds the sign-in request from the credentials.
    ///   - tokens: Takes the token pair from the answer.
    ///   - user: Takes the user from the answer; none by default.
    public convenience init<Request: RequestType>(
        auth: AuthState, dispatcher: any NetworkDispatcher = DefaultDispatcher.current,
        request makeRequest: @escaping @MainActor (Credentials) -> Request,
        tokens: @escaping @Sendable (Answer) throws -> TokenPair,
        user: @escaping @Sendable (Answer) throws -> (any Sendable)? = { _ in nil }
    ) where Request.ResponseType == Answer {
        self.init(
            auth: auth,
            send: { credentials async throws -> Answer in
                try await makeRequest(credentials).exchange(through: dispatcher).value
            }, tokens: tokens, user: user)
    }

    /// Whether someone is signed in, as the auth state says.
    public var isLoggedIn: Bool { auth.isLoggedIn }

    /// Signs in with `credentials`, unless a sign-in is running.
    ///
    /// - Parameter credentials: What the sign-in request sends.
    /// - Returns: The task that signs in, or the running one when this submit was refused.
    @discardableResult
    public func submit(_ credentials: Credentials) -> Task<Void, Never> {
        if let running = work.task { return running }
        isSubmitting = true
        error = nil
        // The task holds the steps, not the view model, so that releasing it cancels the task.
        let steps = Steps(auth: auth, send: send, tokens: tokens, user: user)
        return work.start { [weak self] generation in
            let failure = await steps.signIn(credentials) { self?.work.isCurrent(generation) == true }
            guard let self, self.work.isCurrent(generation) else { return }
            self.isSubmitting = false
            self.error = failure
        }
    }

    /// Cancels the running sign-in: nobody signs in, even when its tokens were being stored.
    public func cancel() {
        guard work.isRunning else { return }
        work.cancel()
        isSubmitting = false
    }

    /// What a sign-in runs, apart from the view model that started it.
    @MainActor private struct Steps {
        let auth: AuthState
        let send: @MainActor (Credentials) async throws -> Answer
        let tokens: @Sendable (Answer) throws -> TokenPair
        let user: @Sendable (Answer) throws -> (any Sendable)?

        /// Sends the credentials and signs in while `isWanted` holds; returns the failure, if any.
        func signIn(_ credentials: Credentials, while isWanted: @MainActor () -> Bool) async -> NetworkError?
        {
            let answer: Answer
            do {
                answer = try await send(credentials)
            } catch {
                return .fromOperation(error)
            }
            // Cancelled, replaced or released while the answer was on its way: nobody signs in.
            guard !Task.isCancelled, isWanted() else {
                return NetworkError(code: .cancelled, message: "The sign-in was cancelled.")
            }
            let pair: TokenPair
            let signedIn: (any Sendable)?
            do {
                pair = try tokens(answer)
                signedIn = try user(answer)
            } catch {
                return NetworkError(
                    code: .decoding, message: "The sign-in answer held no usable tokens or user: \(error)",
                    underlyingError: error)
            }
            do {
                // Checked again once the tokens are stored: a slow storage (the Keychain) leaves
                // the screen time to close.
                try await auth.logIn(tokens: pair, user: signedIn, while: { !Task.isCancelled && isWanted() })
            } catch {
                return .fromOperation(error)
            }
            return nil
        }
    }
}
