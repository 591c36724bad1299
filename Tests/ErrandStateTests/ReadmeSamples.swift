// The code of the View Models article (ErrandState.docc), kept compiling and running here.
import Errand
import ErrandDI
import ErrandPolicies
import ErrandState
import Foundation
import Observation

struct User: Codable, Sendable, Identifiable {
    let id: Int
    let name: String
}

struct GetUsers: RequestType {
    typealias ResponseType = [User]
    let page: Int
    var data: RequestData { .get("/users").query("page", "\(page)") }
}

struct SearchUsers: RequestType {
    typealias ResponseType = [User]
    let text: String
    var data: RequestData { .get("/users/search").query("q", text) }
}

/// A screen's model, made of the ready-made ones.
@Observable @MainActor
final class UsersScreenModel {
    let list: ListViewModel<User>
    let search: SearchViewModel<[User], ContinuousClock>

    init(api: any NetworkDispatcher) {
        list = ListViewModel(dispatcher: api, pagination: .pages(size: 20)) { GetUsers(page: $0.page) }
        search = SearchViewModel(dispatcher: api) { SearchUsers(text: $0) }
    }

    /// Search results while searching, the paged list otherwise.
    var rows: [User] { search.query.isEmpty ? list.items : search.results ?? [] }
}

#if canImport(SwiftUI)
    import SwiftUI

    struct UsersView: View {
        @State var model: UsersScreenModel

        var body: some View {
            @Bindable var search = model.search
            List(model.rows) { user in
                Text(user.name).onAppear {
                    if user.id == model.list.items.last?.id { model.list.loadNextPage() }
                }
            }
            .overlay { if model.rows.isEmpty && model.list.isLoading { ProgressView() } }
            .searchable(text: $search.query)
            .refreshable { await model.list.refresh().value }
            .task { await model.list.load().value }
        }
    }
#endif

@MainActor
func runUsersCommand(api: any NetworkDispatcher, lines: some Sequence<String>) async -> [String] {
    let model = UsersScreenModel(api: api)
    var screens: [String] = []
    await model.list.load().value
    for line in lines {
        switch line {
        case "more": await model.list.loadNextPage().value
        case "refresh": await model.list.refresh().value
        default:
            model.search.query = line == "clear" ? "" : line
            await model.search.submit().value
        }
        screens.append(model.rows.map(\.name).joined(separator: ", "))
    }
    return screens
}
// main.swift: for screen in await runUsersCommand(api: api, lines: AnyIterator { readLine() }) { print(screen) }

// What the auth sample assumes the app has.
struct SignInForm: Sendable {}
struct SignInAnswer: Decodable, Sendable {
    let accessToken: String
    let refreshToken: String?
    let user: String
}
struct SignIn: RequestType {
    typealias ResponseType = SignInAnswer
    init(_ form: SignInForm) {}
    var data: RequestData { RequestData.post("/sign-in").authentication(.none) }
}
actor ImageCache { func removeAll() {} }
let imageCache = ImageCache()
let tokensFile = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("readme-tokens.json")
@Sendable func refreshTokens(_ tokens: TokenPair) async throws -> TokenPair { tokens }
@MainActor func showSignIn() {}

@MainActor
func readmeAuthSample(base: URL) -> LoginViewModel<SignInForm, SignInAnswer> {
    let tokens = FileTokenStorage(url: tokensFile)
    let auth = AuthState(storage: tokens, alsoClear: { await imageCache.removeAll() })
    let api = URLSessionDispatcher(baseURL: base)
        .authenticating(storage: tokens, refresh: refreshTokens, onSessionExpired: auth.sessionExpiredHandler)
    let login = LoginViewModel(
        auth: auth, dispatcher: api,
        request: { (form: SignInForm) in SignIn(form) },  // marked .authentication(.none)
        tokens: { answer in TokenPair(accessToken: answer.accessToken, refreshToken: answer.refreshToken) },
        user: { answer in answer.user })

    Task { for await event in auth.events() where event == .sessionExpired { showSignIn() } }
    return login
}

struct SessionModule: DIModule {
    func register(in di: DI.Registrar) {
        di.register((any TokenStorage).self, scope: .singleton) { _ in FileTokenStorage(url: tokensFile) }
        di.registerMainActor(AuthState.self, scope: .singleton) { r in AuthState(storage: try r.resolve()) }
        di.registerMainActor(UsersScreenModel.self) { r in UsersScreenModel(api: try r.resolve()) }
    }
}
