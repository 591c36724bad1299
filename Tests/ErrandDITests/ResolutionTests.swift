import ErrandDI
import Testing

/// An owner with injected properties, like the seed's `ProfileScreen`.
private final class ProfileScreen {
    @Inject var profile: ProfileService
    @Inject(name: .primary) var primary: HTTPClient
}

@Suite struct ResolutionTests {
    @Test func resolveOptionalIsNilOnlyWhenNothingIsRegistered() throws {
        // Given one registration that works and one whose dependency is missing
        let container = DI { di in
            di.register(Config.self) { _ in Config(retries: 2) }
            di.register(ProfileService.self) { r in ProfileService(client: try r.resolve()) }
        }

        // Then the optional form returns the value, nil for the unregistered type,
        // and throws for the registered but broken one
        #expect(try container.resolveOptional(Config.self) == Config(retries: 2))
        #expect(try container.resolveOptional(TokenStore.self) == nil)
        let error = try #require(throws: DIError.self) { try container.resolveOptional(ProfileService.self) }
        #expect(error.code == .missingRegistration)
        #expect(error.typeName == "HTTPClient")
    }

    @Test func theResolverHasTheSameThreeForms() throws {
        let container = DI { di in
            di.register(Config.self) { _ in Config(retries: 2) }
            di.register(String.self) { r in
                let config = try r.resolve(Config.self)
                let missing = try r.resolveOptional(TokenStore.self)
                let all = try r.resolveAll(RequestInterceptor.self)
                return "\(config.retries) \(missing == nil) \(all.count)"
            }
        }

        #expect(try container.resolveThrowing(String.self) == "2 true 0")
    }

    @Test func injectResolvesWhenTheOwnerIsCreated() throws {
        // Given overrides that count how often the service is made
        let runs = Counter()
        try DI.withOverrides { di in
            di.register(HTTPClient.self, name: .primary) { _ in FakeClient(tag: 1) }
            di.register(ProfileService.self) { _ in
                runs.increment()
                return ProfileService(client: FakeClient(tag: 2))
            }
        } operation: { () throws in
            // When an owner is created
            let screen = ProfileScreen()

            // Then its properties were resolved during creation, once
            #expect(runs.value == 1)
            #expect((screen.profile.client as? FakeClient)?.tag == 2)
            #expect((screen.primary as? FakeClient)?.tag == 1)
            _ = screen.profile
            #expect(runs.value == 1)
            #expect(try DI.current.resolveThrowing(HTTPClient.self, name: .primary) is FakeClient)
        }
    }

    @Test func injectCanNameItsContainer() {
        let container = DI { di in di.register(Config.self) { _ in Config(retries: 4) } }

        let injected = Inject<Config>(container: container)

        #expect(injected.wrappedValue == Config(retries: 4))
    }

    @Test func aProviderResolvesAnewOnEachCall() throws {
        let runs = Counter()
        let container = DI { di in
            di.register(Session.self) { _ in Session(number: runs.increment()) }
            di.register(TokenStore.self, scope: .singleton) { _ in TokenStore(token: "one") }
        }
        let sessions = Provider<Session>(container: container)
        let stores = Provider<TokenStore>(container: container)
        #expect(runs.value == 0)

        #expect(try sessions().number == 1)
        #expect(try sessions.get().number == 2)
        #expect(try stores() === (try stores()))
    }

    @Test func aLazyValueResolvesOnFirstUseOnce() throws {
        let runs = Counter()
        let container = DI { di in
            di.register(Session.self) { _ in Session(number: runs.increment()) }
        }
        let session = Lazy<Session>(container: container)
        #expect(runs.value == 0)
        #expect(!session.isResolved)

        let first = try session.get()
        let second = try session.get()

        #expect(first === second)
        #expect(runs.value == 1)
        #expect(session.isResolved)
    }

    @Test func aLazyValueResolvesOnceUnderConcurrentFirstUse() async throws {
        let runs = Counter()
        let container = DI { di in
            di.register(Session.self) { _ in
                var spin = 0
                for step in 0..<50_000 { spin &+= step }
                return Session(number: runs.increment() + (spin == 0 ? 1 : 0))
            }
        }
        let session = Lazy<Session>(container: container)

        let numbers = await withTaskGroup(of: Int?.self) { group in
            for _ in 0..<200 {
                group.addTask { try? session.get().number }
            }
            var numbers: Set<Int?> = []
            for await number in group {
                numbers.insert(number)
            }
            return numbers
        }

        #expect(numbers == [1])
        #expect(runs.value == 1)
    }

    @Test func lazyAndProviderBreakCycles() throws {
        // Given two pairs of types that need each other, one edge deferred in each pair
        let container = DI { di in
            di.register(Chicken.self, scope: .singleton) { r in Chicken(egg: r.lazy()) }
            di.register(Egg.self) { r in Egg(chicken: try r.resolve()) }
            di.register(Hen.self, scope: .singleton) { r in Hen(eggs: r.provider()) }
            di.register(Nest.self) { r in Nest(hen: try r.resolve()) }
        }

        // When both are resolved and the deferred edge is followed afterwards
        let chicken = try container.resolveThrowing(Chicken.self)
        let hen = try container.resolveThrowing(Hen.self)

        // Then there is no cycle: the deferred values resolve once their owner exists
        #expect(try chicken.egg.get().chicken === chicken)
        #expect(try hen.eggs().hen === hen)
    }

    @Test func usingALazyValueInsideTheCycleItDefersIsReportedNotDeadlocked() throws {
        // Given a factory that uses its lazy dependency at once, closing the cycle
        let container = DI(name: "App") { di in
            di.register(Chicken.self, scope: .singleton) { r in
                let chicken = Chicken(egg: r.lazy())
                _ = try chicken.egg.get()
                return chicken
            }
            di.register(Egg.self) { r in Egg(chicken: try r.resolve()) }
        }

        let error = try #require(throws: DIError.self) { try container.resolveThrowing(Chicken.self) }

        #expect(error.code == .dependencyCycle)
        #expect(error.path == ["Chicken", "Egg", "Chicken"])
    }
}
