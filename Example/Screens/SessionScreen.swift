import Errand
import ErrandPolicies
import ErrandState
import Foundation

/// Sign-in, the profile and sign-out: a `LoginViewModel` over an `AuthState`, and a
/// `NetworkViewModel` for `/auth/me`.
@MainActor
final class SessionScreen {
    let auth: AuthState
    let login: LoginViewModel<Login.Credentials, LoginAnswer>
    private let dispatcher: any NetworkDispatcher

    init(dispatcher: any NetworkDispatcher, storage: any TokenStorage, clock: ExampleClock) {
        self.dispatcher = dispatcher
        auth = AuthState(storage: storage)
        login = LoginViewModel(
            auth: auth, dispatcher: dispatcher, request: { Login(credentials: $0) },
            tokens: { $0.tokens(now: clock.now) },
            user: { "\($0.firstName) \($0.lastName)" })
    }

    /// Signs in, and returns the user's name.
    func logIn(_ username: String, _ password: String) async throws -> String {
        await login.submit(Login.Credentials(username: username, password: password)).value
        if let error = login.error { throw error }
        return auth.user(as: String.self) ?? username
    }

    /// Loads the signed-in user.
    func me() async throws -> User {
        let model = NetworkViewModel(GetMe(), dispatcher: dispatcher)
        await model.load().value
        if let error = model.state.error { throw error }
        guard let user = model.value else {
            throw NetworkError(code: .cancelled, message: "The profile did not load.")
        }
        return user
    }

    /// Signs out: the stored tokens are removed.
    func logOut() async throws {
        try await auth.restore()
        try await auth.logout()
    }
}
