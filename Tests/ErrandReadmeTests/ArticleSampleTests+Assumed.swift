extension ArticleSampleTests {
    /// What each page's samples assume the reader's app already has, by page.
    static let assumed: [String: String] = [
        "Errand/Errand.md": user,
        "Errand/TestingWithDispatchers.md": users
            + "let testClock: any Clock<Duration> = ContinuousClock()\n",
        "ErrandPolicies/AuthenticationAndRetry.md": user
            + "func refreshTokens(_ tokens: TokenPair) async throws -> TokenPair { tokens }\n",
        "Errand/WorkingOnLinux.md": users + "let dispatcher = InMemoryDispatcher()\n",
        "Errand/MigratingFromConn.md": users,
        "Errand/HandlingErrors.md": users + "let dispatcher = InMemoryDispatcher()\n",
        "ErrandPolicies/CoalescedReads.md": """
        let storage = InMemoryTokenStorage()
        @Sendable func refreshTokens(_ tokens: TokenPair) async throws -> TokenPair { tokens }

        """,
        "ErrandPolicies/ErrandPolicies.md": users
            + "func refreshTokens(_ tokens: TokenPair) async throws -> TokenPair { tokens }\n",
        "ErrandReplay/FlightRecorderAndVerification.md": """
        let cassette = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("users.har")
        let token = "a-token"

        """,
        "ErrandReplay/ErrandReplay.md": users,
        "ErrandReplay/TestingWithRecordings.md": users,
        "ErrandDI/ErrandDI.md": clients,
        "ErrandDI/DependencyInjection.md": clients + """
            final class FakeClient: HTTPClient {
                let baseURL = "fake://"
            }
            final class SessionStore: Sendable {}
            @MainActor final class ProfileViewModel {
                let service: ProfileService
                init(service: ProfileService) { self.service = service }
            }

            """,
        "ErrandState/ErrandState.md": identifiableUser + userRequests,
        "ErrandState/ViewModels.md": identifiableUser + signIn,
    ]

    /// A user.
    static let user = """
        struct User: Codable, Sendable {
            let id: Int
            let name: String
        }

        """

    /// A user and the request for all of them.
    static let users =
        user + """
            struct GetAllUsers: RequestType {
                typealias ResponseType = [User]
                var data: RequestData { RequestData(path: "/users") }
            }

            """

    /// A user that a SwiftUI list can show.
    static let identifiableUser = """
        struct User: Codable, Sendable, Identifiable {
            let id: Int
            let name: String
        }

        """

    /// The paged and searched requests of the view model samples.
    static let userRequests = """
        struct GetUsers: RequestType {
            typealias ResponseType = [User]
            let page: Int
            var data: RequestData { .get("/users").query("page", "\\(page)") }
        }
        struct SearchUsers: RequestType {
            typealias ResponseType = [User]
            let text: String
            var data: RequestData { .get("/users/search").query("q", text) }
        }

        """

    /// The sign-in request and the app's pieces that the sign-in sample uses.
    static let signIn = """
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
        let tokensFile = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("tokens.json")
        let base = URL(string: "https://api.example.com")!
        @Sendable func refreshTokens(_ tokens: TokenPair) async throws -> TokenPair { tokens }
        @MainActor func showSignIn() {}

        """

    /// The HTTP client and service of the dependency injection samples.
    static let clients = """
        protocol HTTPClient: Sendable { var baseURL: String { get } }
        final class LiveClient: HTTPClient {
            let baseURL: String
            init(baseURL: String) { self.baseURL = baseURL }
        }
        final class ProfileService: Sendable {
            let client: any HTTPClient
            init(client: any HTTPClient) { self.client = client }
        }

        """
}
