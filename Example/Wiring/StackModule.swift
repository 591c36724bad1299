import Errand
import ErrandDI
import ErrandPolicies
import Foundation

/// What the command line chose about logging and where the signed-in session is kept.
struct AppSettings: Sendable {
    /// Whether the redacted log lines go to standard error.
    var verbose: Bool
    /// The folder that holds each environment's stored tokens.
    var home: URL
    /// Whether the session lives in memory only (the tour), leaving a stored login alone.
    var sessionInMemory = false
}

/// The dispatcher stack every environment shares, built on the environment's transport:
///
/// transport ▸ cache ▸ logging ▸ auth with refresh ▸ retry
///
/// Logging sits beneath auth so that it shows the bearer header (redacted) and the refresh
/// call; the cache sits beneath logging so a cached answer is logged too.
struct StackModule: DIModule {
    let settings: AppSettings

    func register(in di: DI.Registrar) {
        di.registerSingleton(AppSettings.self, instance: settings)
        di.registerSingleton(ExampleClock.self, instance: ExampleClock())
        di.register((any TokenStorage).self, scope: .singleton) { r -> any TokenStorage in
            if settings.sessionInMemory { return InMemoryTokenStorage() }
            let environment = try r.resolve(NetworkEnvironment.self)
            let folder = settings.home.appendingPathComponent(environment.name, isDirectory: true)
            return FileTokenStorage(url: folder.appendingPathComponent("tokens.json"))
        }
        di.register((any NetworkDispatcher).self, scope: .singleton) { r in
            try stack(
                transport: r.resolve((any NetworkDispatcher).self, name: .transport),
                environment: r.resolve(NetworkEnvironment.self), storage: r.resolve((any TokenStorage).self),
                clock: r.resolve(ExampleClock.self))
        }
    }

    private func stack(
        transport: any NetworkDispatcher, environment: NetworkEnvironment, storage: any TokenStorage,
        clock: ExampleClock
    ) -> any NetworkDispatcher {
        let now: @Sendable () -> Date = { clock.now }
        let logged = transport.caching(MemoryCacheStore(), baseURL: environment.baseURL, now: now)
            .logging(to: StreamLogSink(.standardError), level: settings.verbose ? .headers : .none)
        let retry = RetryPolicy(maximumAttempts: 2, backoff: .init(base: .milliseconds(200)))
        return logged.authenticating(
            storage: storage,
            refresh: { tokens in
                guard let refreshToken = tokens.refreshToken else {
                    throw NetworkError(code: .sessionExpired, message: "No refresh token is stored.")
                }
                let answer = try await RefreshSession(refreshToken: refreshToken).execute(dispatcher: logged)
                return answer.tokens(replacing: tokens, now: clock.now)
            }, leeway: 10, now: now
        )
        .retrying(retry)
    }
}
