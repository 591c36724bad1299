import ErrandDI
import Testing

@Suite struct VerifyTests {
    @Test func aCompleteGraphVerifies() async throws {
        let container = DI(name: "App") { di in
            di.register(HTTPClient.self, scope: .singleton) { _ in FakeClient() }
            di.register(ProfileService.self) { r in ProfileService(client: try r.resolve()) }
            di.contribute(RequestInterceptor.self) { _ in LabelInterceptor(label: "a") }
        }

        try await container.verify()
    }

    @Test func verifyReportsTwoMissingBindingsAndOneCycleAtOnce() async throws {
        // Given a graph with two missing bindings and one cycle
        let container = DI(name: "App") { di in
            di.register(ProfileService.self) { r in ProfileService(client: try r.resolve()) }
            di.register(Config.self) { r in Config(retries: try r.resolve(TokenStore.self).token.count) }
            di.register(NodeA.self) { r in NodeA(next: try r.resolve()) }
            di.register(NodeB.self) { r in NodeB(next: try r.resolve()) }
            di.register(NodeC.self) { r in NodeC(next: try r.resolve()) }
            di.register(Session.self) { _ in Session(number: 1) }
        }

        // When the graph is verified
        let error = try await #require(throws: DIError.self) { try await container.verify() }

        // Then all three problems are reported, once each, in registration order
        #expect(error.code == .verificationFailed)
        #expect(error.problems.map(\.code) == [.missingRegistration, .missingRegistration, .dependencyCycle])
        #expect(error.problems.map(\.typeName) == ["HTTPClient", "TokenStore", "NodeA"])
        #expect(
            error.description == """
                DI.verify() found 3 problems in container "App":
                1. No registration for HTTPClient in container "App".
                   Resolution path: ProfileService → HTTPClient
                   Near misses: none.
                   Register HTTPClient in DI.configure or a DIModule.
                2. No registration for TokenStore in container "App".
                   Resolution path: Config → TokenStore
                   Near misses: none.
                   Register TokenStore in DI.configure or a DIModule.
                3. Dependency cycle in container "App": NodeA → NodeB → NodeC → NodeA.
                   Each of these is needed again while it is being created. Break the cycle by injecting \
                Lazy<T> or Provider<T> on one of its edges, or remove one of the dependencies.
                """
        )
    }

    @Test func verifyUsesAScratchContainer() async throws {
        let runs = Counter()
        let container = DI { di in
            di.register(Session.self, scope: .singleton) { _ in Session(number: runs.increment()) }
        }

        try await container.verify()
        let session = try container.resolveThrowing(Session.self)

        #expect(runs.value == 2)
        #expect(session.number == 2)
    }

    @Test func verifyReportsDuplicatesWeakValueTypesAndMismatchedBindings() async throws {
        let container = DI(name: "App") { di in
            di.register(Config.self, scope: .weak) { _ in Config(retries: 1) }
            di.register(TokenStore.self) { _ in TokenStore(token: "a") }
            di.register(TokenStore.self) { _ in TokenStore(token: "b") }
            di.bind(HTTPClient.self, to: TokenStore.self)
        }

        let error = try await #require(throws: DIError.self) { try await container.verify() }

        #expect(error.problems.map(\.code) == [.duplicateRegistration, .invalidScope, .typeMismatch])
        #expect(
            error.problems.first?.description == """
                TokenStore is registered twice: by DI.configure, then by DI.configure, in container "App".
                The later registration wins. Remove one of them; to replace a binding in tests, use \
                DI.withOverrides.
                """
        )
        #expect(error.problems.dropFirst().first?.description.contains("cannot be held weakly") == true)
    }

    @Test func verifyChecksMainActorBindingsAndParents() async throws {
        let parent = DI(name: "App") { di in
            di.register(ProfileService.self) { r in ProfileService(client: try r.resolve()) }
        }
        let child = parent.child(name: "Screen") { di in
            di.registerMainActor(ProfileViewModel.self) { r in ProfileViewModel(service: try r.resolve()) }
        }

        let error = try await #require(throws: DIError.self) { try await child.verify() }

        #expect(error.problems.map(\.code) == [.missingRegistration])
        #expect(error.problems.first?.path == ["ProfileService", "HTTPClient"])
    }

    @Test func staticVerifyChecksTheCurrentContainer() async throws {
        try await DI.withOverrides { di in
            di.register(ProfileService.self) { r in ProfileService(client: try r.resolve(name: .uploads)) }
        } operation: {
            let error = try await #require(throws: DIError.self) { try await DI.verify() }
            #expect(error.problems.contains { $0.typeName == "HTTPClient" && $0.name == .uploads })
        }
    }
}
