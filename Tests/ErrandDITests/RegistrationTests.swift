import ErrandDI
import Testing

@Suite struct RegistrationTests {
    @Test func factoriesReceiveAResolverForTheirDependencies() throws {
        // Given a service registered with a factory that resolves its client
        let container = DI(name: "App") { di in
            di.baseURL = "https://api.example.com"
            di.register(HTTPClient.self, scope: .singleton) { r in URLClient(baseURL: r.baseURL) }
            di.register(ProfileService.self) { r in ProfileService(client: try r.resolve()) }
        }

        // When the service is resolved
        let service = try container.resolveThrowing(ProfileService.self)

        // Then its dependency came from the container, built with the typed setting
        #expect(service.client.baseURL == "https://api.example.com")
    }

    @Test func registerSingletonReturnsTheGivenInstance() throws {
        let store = TokenStore(token: "secret")
        let container = DI { di in di.registerSingleton(TokenStore.self, instance: store) }

        let first = try container.resolveThrowing(TokenStore.self)
        let second: TokenStore = container.resolve()

        #expect(first === store)
        #expect(second === store)
    }

    @Test func aProtocolCanBeRegisteredWithAnImplementation() throws {
        let container = DI { di in
            di.register(HTTPClient.self) { _ in FakeClient(tag: 7) }
        }

        let client = try container.resolveThrowing(HTTPClient.self)

        #expect((client as? FakeClient)?.tag == 7)
    }

    @Test func bindResolvesTheProtocolToTheSameSingletonAsTheImplementation() throws {
        // Given an implementation registered as a singleton and its protocol bound to it
        let container = DI { di in
            di.register(FakeClient.self, scope: .singleton) { _ in FakeClient(tag: 1) }
            di.bind(HTTPClient.self, to: FakeClient.self)
        }

        // When both are resolved
        let implementation = try container.resolveThrowing(FakeClient.self)
        let bound = try container.resolveThrowing(HTTPClient.self)

        // Then they are one instance
        #expect((bound as? FakeClient) === implementation)
    }

    @Test func bindToATypeThatDoesNotConformReportsATypeMismatch() throws {
        let container = DI(name: "App") { di in
            di.register(TokenStore.self) { _ in TokenStore(token: "t") }
            di.bind(HTTPClient.self, to: TokenStore.self)
        }

        let error = try #require(throws: DIError.self) { try container.resolveThrowing(HTTPClient.self) }

        #expect(error.code == .typeMismatch)
        #expect(
            error.description == """
                HTTPClient is bound to TokenStore in container "App", but TokenStore does not conform \
                to HTTPClient.
                Resolution path: HTTPClient
                Bind HTTPClient to a type that conforms to it.
                """
        )
    }

    @Test func typedQualifiersKeepRegistrationsOfOneTypeApart() throws {
        let container = DI { di in
            di.register(HTTPClient.self, name: .primary, scope: .singleton) { _ in FakeClient(tag: 1) }
            di.register(HTTPClient.self, name: .backup, scope: .singleton) { _ in FakeClient(tag: 2) }
            di.register(HTTPClient.self, scope: .singleton) { _ in FakeClient(tag: 3) }
        }

        let primary = try container.resolveThrowing(HTTPClient.self, name: .primary)
        let backup = try container.resolveThrowing(HTTPClient.self, name: .backup)
        let unnamed = try container.resolveThrowing(HTTPClient.self)

        #expect((primary as? FakeClient)?.tag == 1)
        #expect((backup as? FakeClient)?.tag == 2)
        #expect((unnamed as? FakeClient)?.tag == 3)
    }

    @Test func namesWithTheSameTextAreEqual() {
        #expect(DI.Name("primary") == DI.Name.primary)
        #expect(DI.Name("primary").hashValue == DI.Name.primary.hashValue)
        #expect(DI.Name.primary != DI.Name.backup)
        #expect(DI.Name.primary.description == "named \"primary\"")
    }

    @Test func settingsAreTypedWithDefaultsAndReadableEverywhere() throws {
        // Given a container that sets one typed setting and leaves another at its default
        let container = DI { di in
            #expect(di.retryCount == 3)
            di.retryCount = 5
            di.register(Config.self) { r in Config(retries: r.retryCount) }
        }

        // Then the setting is read back on the container and by factories
        #expect(container.retryCount == 5)
        #expect(container.baseURL == "")
        #expect(try container.resolveThrowing(Config.self) == Config(retries: 5))
        #expect(container.settings[RetryCountKey.self] == 5)
    }

    @Test func theSeedSampleConfiguresAndResolves() throws {
        // The seed API of the issue, with stand-ins for the networking types.
        let storage = TokenStore(token: "abc")
        let container = DI(name: "App") { di in
            di.baseURL = "https://api.example.com"
            di.registerSingleton(TokenStore.self, instance: storage)
            di.register(HTTPClient.self, scope: .singleton) { r in URLClient(baseURL: r.baseURL) }
            di.register(ProfileService.self) { r in ProfileService(client: try r.resolve()) }
        }

        let service: ProfileService = container.resolve()

        #expect(service.client.baseURL == "https://api.example.com")
        #expect(container.resolve(TokenStore.self) === storage)
    }

    @Test func theStaticTypeIsTheKeyNotASubclassMetatypePassedAtRunTime() throws {
        // Given a registration whose metatype argument is a subclass, typed as the base class
        let metatype: Animal.Type = Dog.self
        let container = DI { di in di.register(metatype) { _ in Animal() } }

        // Then the binding is keyed by the base class, whose values its factory makes
        #expect(try container.resolveOptional(Dog.self) == nil)
        #expect(try container.resolveOptional(Animal.self) != nil)
    }

    @Test func registrationsAreClosedAfterConfiguration() throws {
        // Given a registrar that escapes its closure (which the API discourages but allows)
        var escaped: DI.Registrar?
        let container = DI { di in escaped = di }

        // When it registers after the container was built
        escaped?.register(Config.self) { _ in Config(retries: 1) }

        // Then the container does not take the late registration, and says so
        let error = try #require(throws: DIError.self) { try container.resolveOptional(Config.self) }
        #expect(error.code == .registrationAfterConfigure)
    }
}
