import ErrandDI
import Testing

/// Uses each public `Sendable` type from a detached task, so the compiler checks the claims.
@Suite struct SendableTests {
    @Test func publicTypesCrossIntoDetachedTasks() async throws {
        // Given one value of each public Sendable type
        let container = DI(name: "App") { di in
            di.register(Session.self, scope: .singleton) { _ in Session(number: 1) }
        }
        let name = DI.Name.primary
        let scope = DI.Scope.session
        let scopeName = DI.ScopeName.checkout
        var settings = DI.Settings()
        settings.baseURL = "https://api.example.com"
        let provider = Provider<Session>(container: container)
        let lazy = Lazy<Session>(container: container)
        let inject = Inject<Session>(container: container)
        let error = try #require(throws: DIError.self) { try container.resolveThrowing(Config.self) }
        let nearMiss = DIError.NearMiss?.none

        // When they are used from a detached task
        let result = try await Task.detached {
            let resolver: DI.Resolver? = nil
            _ = (name, scope, scopeName, resolver, nearMiss, inject.wrappedValue)
            let session = try container.resolveThrowing(Session.self)
            return (
                session === (try provider()),
                session === (try lazy.get()),
                settings.baseURL,
                error.code
            )
        }.value

        // Then they worked there
        #expect(result.0)
        #expect(result.1)
        #expect(result.2 == "https://api.example.com")
        #expect(result.3 == .missingRegistration)
    }

    @Test func aResolverCanBeKeptAndUsedFromAnotherTask() async throws {
        // A factory may hand its resolver to a closure that runs later, elsewhere.
        let container = DI { di in
            di.register(Config.self) { _ in Config(retries: 6) }
            di.register((@Sendable () throws -> Config).self) { r in { try r.resolve(Config.self) } }
        }
        let makeConfig = try container.resolveThrowing((@Sendable () throws -> Config).self)

        let config = try await Task.detached { try makeConfig() }.value

        #expect(config == Config(retries: 6))
    }
}
