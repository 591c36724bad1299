// Every Swift sample in README.md, verbatim, so that the README cannot drift from code that
// compiles (`ReadmeTests` checks that each README block appears here), and the DocC articles'
// samples that tests run as written.
import Errand
import ErrandPolicies
import ErrandReplay
import Foundation
import Testing

struct User: Codable, Sendable {
    let id: Int
    let name: String
}

struct GetAllUsers: RequestType {
    typealias ResponseType = [User]
    var data: RequestData { RequestData(path: "/users") }
}

struct CreateUser: Encodable, Sendable {
    let name: String
}

/// Stands in for the app's own refresh call in the README's policy sample.
func refreshTokens(_ tokens: TokenPair) async throws -> TokenPair {
    TokenPair(accessToken: "renewed", refreshToken: tokens.refreshToken)
}

func signedInAPI(baseURL: URL, storage: any TokenStorage) -> AuthenticatingDispatcher {
    URLSessionDispatcher(baseURL: baseURL).authenticating(storage: storage) { tokens, transport in
        let refresh = RequestData.post("/token").body(
            .form(["grant_type": "refresh_token", "refresh_token": tokens.refreshToken ?? ""]))
        let answer = try await Request<OAuthTokenResponse>(refresh).execute(dispatcher: transport)
        return answer.tokenPair(replacing: tokens)  // keeps the old refresh token if none is sent
    }
}

func loadProfile(api: any NetworkDispatcher, storage: any TokenStorage) async throws -> User? {
    do {
        return try await Request<User>(.get("/me")).execute(dispatcher: api)
    } catch let error as NetworkError where error.code == .tokenStorage {
        try await storage.clear()  // the saved sign-in is unusable: drop it
        return nil  // and show the sign-in screen
    }
}

enum ReadmeSamples {
    static func policies() -> any NetworkDispatcher {
        let storage = FileTokenStorage(url: URL(fileURLWithPath: "/var/lib/shop/tokens.json"))
        let api = URLSessionDispatcher(baseURL: URL(string: "https://api.example.com")!)
            .intercepted(by: [
                UserAgentInterceptor("Shop/2.1"), APIKeyInterceptor("k-123", in: .header("X-API-Key")),
            ])
            .authenticating(
                storage: storage,
                refresh: { tokens in try await refreshTokens(tokens) },
                onSessionExpired: { _ in print("signed out") }
            )
            .retrying(.default)
        return api
    }

    static func quickStart() async throws {
        let dispatcher = URLSessionDispatcher(baseURL: URL(string: "https://api.example.com")!)

        // async/await
        let users = try await GetAllUsers().execute(dispatcher: dispatcher)

        // or callbacks, on the main queue unless you pass another
        GetAllUsers().execute(
            dispatcher: dispatcher,
            onSuccess: { users in print(users.count) },
            onError: { error in print(error.userMessage) }
        )
        _ = users
    }

    static func describing(dispatcher: any NetworkDispatcher) async throws {
        let search = RequestData.get("/search").query("q", "swift & more").header("X-API-Key", "secret")
        let create = RequestData.post("/users").body(.json(CreateUser(name: "John")))
        let upload = RequestData.post("/avatars").body(
            .multipart([
                .field("caption", "Me"),
                .file("image", fileName: "me.png", contentType: "image/png", data: Data()),
            ]))

        // Ad-hoc, without declaring a type:
        let user = try await Request<User>(.get("/users/1")).execute(dispatcher: dispatcher)
        _ = (search, create, upload, user)
    }

    static func testing() async throws {
        let fake = InMemoryDispatcher()
        fake.stub(.get, "/users", response: .json([User(id: 1, name: "Ada")]))
        fake.stub(.get, "/users/*", responses: [.status(503), .json(User(id: 2, name: "Grace"))])

        let users = try await GetAllUsers().execute(dispatcher: fake)
        assert(fake.receivedRequests.map(\.path) == ["/users"])

        // Or make it the default for one scope (task-local, safe in parallel tests):
        try await DefaultDispatcher.withOverride(fake) {
            _ = try await GetAllUsers().execute()
        }
        _ = users
    }

    static func recording() async throws {
        let baseURL = URL(string: "https://api.example.com")!
        let replay = ReplayDispatcher(
            cassette: ReplayDispatcher.cassetteURL("users", suite: "UserAPITests"),  // next to this file
            baseURL: baseURL,
            mode: .once,  // record the first time, replay ever after
            upstream: URLSessionDispatcher(baseURL: baseURL)
        )
        let users = try await GetAllUsers().execute(dispatcher: replay)
        try replay.assertAllPlayed()  // throws when a recording was never asked for
        _ = users
    }

    static func replayConfiguration() -> ReplayDispatcher.Configuration {
        let configuration = ReplayDispatcher.Configuration {
            $0.matching.ignoredQueryItems = ["timestamp"]
            $0.matching.ignoredBodyPaths = ["meta.requestId", "items[*].nonce"]
            $0.matching.headers = ["Accept-Language"]
            $0.whenExhausted = .repeatLast
            $0.redaction.bodyKeys.insert("ssn")
        }
        return configuration
    }

    static func verifying(cassette: URL, token: String) async throws -> Bool {
        let verifier = try CassetteVerifier(
            cassette: cassette,
            dispatcher: URLSessionDispatcher().intercepted(by: [
                DefaultHeadersInterceptor(["Authorization": "Bearer \(token)"])  // the cassette's is redacted
            ]),
            options: CassetteVerifier.Options {
                $0.baseURL = URL(string: "https://staging.example.com")  // keeps recorded paths and queries
                $0.ignoredBodyPaths = ["meta.requestId"]
                $0.allowsUnsafeEntries = [3]  // only GET, HEAD and OPTIONS are sent unless opted in
            })
        let report = await verifier.verify()
        let breaking = report.isBreaking(for: [.missing, .type])  // see also .differences, .description
        return breaking
    }

    static func handlingErrors(dispatcher: any NetworkDispatcher) async {
        do {
            _ = try await GetAllUsers().execute(dispatcher: dispatcher)
        } catch let error as NetworkError {
            switch error.code {
            case .unacceptableStatus where error.statusCode == 404:
                print("not found")
            case .timedOut, .transport:
                print("offline? \(error.userMessage)")
            case .cancelled:
                break
            default:
                print(error)  // code, request, response, body snippet and cause, for the log
            }
        } catch {
            print(error)  // not reached: Errand throws NetworkError only
        }
    }

    /// The Swift Testing sample of "Catching errors"; `dispatcher` answers `/users` with a 404.
    static func catchingInTests(dispatcher: any NetworkDispatcher) async throws {
        do {
            _ = try await GetAllUsers().execute(dispatcher: dispatcher)
            Issue.record("expected an error")
        } catch let error as NetworkError {
            #expect(error.code == .unacceptableStatus)
            #expect(error.message.contains("404"))
        }
        let error = await #expect(throws: NetworkError.self) {
            try await GetAllUsers().execute(dispatcher: dispatcher)
        }
        #expect(error?.statusCode == 404)
    }
}

extension ReadmeSamples {
    static func requestQueue() -> (any NetworkDispatcher, RequestData) {
        let queued = URLSessionDispatcher(baseURL: URL(string: "https://api.example.com")!)
            .retrying(.default)
            .limitingConcurrency(to: 6)
        let refresh = RequestData.post("/token").bypassingQueue()  // a token refresh skips the line
        return (queued, refresh)
    }

    static func metrics() -> any NetworkDispatcher {
        let metrics = InMemoryMetrics()
        let measured = URLSessionDispatcher(baseURL: URL(string: "https://api.example.com")!)
            .measuring(into: metrics)
            .retrying(.default)
        // later, on a status screen or a timer:
        print(metrics.count, metrics.errorRate, metrics.p95 ?? .zero)
        return measured
    }
}

func uploadPhoto(_ photo: Data, api: any NetworkDispatcher, show: @escaping @Sendable (Double?) -> Void) {
    Request<EmptyResponse>(.post("/photos").body(.raw(photo, contentType: "image/jpeg"))).execute(
        dispatcher: api,
        progress: { progress in
            if progress.direction == .upload { show(progress.fraction) }  // nil: length unknown
        },
        onSuccess: { _ in show(1) },
        onError: { error in print(error.userMessage) })
}

func pinnedAPI() throws -> URLSessionDispatcher {
    let pins = try PublicKeyPins([
        "api.example.com": [
            "r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E=",  // the key in use
            "YLh1dUR9y6Kja30RrAn7JKnbQG/uEtLMkBgFF2Fuihg=",  // the backup key, kept offline
        ]
    ])
    return URLSessionDispatcher(baseURL: URL(string: "https://api.example.com")!, pinning: pins)
}

extension ReadmeSamples {
    /// The first sample of "Logging and cURL".
    static func logging() -> any NetworkDispatcher {
        let logged = URLSessionDispatcher(baseURL: URL(string: "https://api.example.com")!)
            .logging(to: StreamLogSink(), level: .basic)
            .retrying(.default)
        // [errand #12] → GET /users?page=2
        // [errand #12] ← 200 GET /users?page=2 12.3 ms 411 B
        return logged
    }

    /// The cURL sample of "Logging and cURL"; returns the command it makes.
    static func curl() throws -> String {
        let login = RequestData.post("/login").body(.form(["user": "ann", "password": "hunter2"]))
        let command = try login.curlCommand(baseURL: URL(string: "https://api.example.com"))
        // curl -X 'POST' 'https://api.example.com/login' -H 'Content-Type: application/x-www-form-urlencoded; charset=utf-8' --data-raw 'user=ann&password=%3Credacted%3E'
        return command
    }
}

extension ReadmeSamples {
    /// The sample of "Coalesced reads".
    static func coalescedReads(storage: any TokenStorage) -> any NetworkDispatcher {
        let api = URLSessionDispatcher(baseURL: URL(string: "https://api.example.com")!)
            .authenticating(storage: storage, refresh: refreshTokens)
            .coalescingIdenticalRequests(alsoMatching: ["X-Tenant"])
        return api
    }

    /// The sample of "Flight recorder".
    static func flightRecorder() throws -> any NetworkDispatcher {
        let recorder = FlightRecorder(.init(maximumEntries: 200, maximumAge: .seconds(600)))
        let recorded = URLSessionDispatcher(baseURL: URL(string: "https://api.example.com")!)
            .retrying(.default)
            .flightRecording(into: recorder)
        // from a "Report a problem" button:
        try recorder.write(to: URL.temporaryDirectory.appending(path: "last-requests.har"))
        return recorded
    }
}
