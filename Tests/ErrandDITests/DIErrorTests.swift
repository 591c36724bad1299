import ErrandDI
import Testing

/// Two owners whose `@Inject` properties need each other.
final class LoopOne {
    @Inject var two: LoopTwo
}

final class LoopTwo {
    @Inject var one: LoopOne
}

@Suite struct DIErrorTests {
    @Test func aMissingRegistrationNamesTypeQualifierPathContainerAndNearMisses() throws {
        // Given a service that asks for a client under a name nobody registered
        let container = DI(name: "App") { di in
            di.register(HTTPClient.self, name: .backup) { _ in FakeClient() }
            di.register(ProfileService.self) { r in ProfileService(client: try r.resolve(name: .primary)) }
        }

        // When the service is resolved
        let error = try #require(throws: DIError.self) { try container.resolveThrowing(ProfileService.self) }

        // Then the message says what was asked, how we got there, and what exists instead
        #expect(error.code == .missingRegistration)
        #expect(error.typeName == "HTTPClient")
        #expect(error.name == .primary)
        #expect(error.path == ["ProfileService", "HTTPClient named \"primary\""])
        #expect(error.container == "App")
        #expect(
            error.description == """
                No registration for HTTPClient named "primary" in container "App".
                Resolution path: ProfileService → HTTPClient named "primary"
                Near misses:
                  - HTTPClient is registered under the name "backup" (by DI.configure in "App").
                Register HTTPClient named "primary" in DI.configure or a DIModule, or ask for one of \
                the near misses.
                """
        )
    }

    @Test func aMissingRegistrationWithoutNearMissesSaysSo() throws {
        let container = DI(name: "App")

        let error = try #require(throws: DIError.self) { try container.resolveThrowing(Config.self) }

        #expect(
            error.description == """
                No registration for Config in container "App".
                Resolution path: Config
                Near misses: none.
                Register Config in DI.configure or a DIModule.
                """
        )
    }

    @Test func optionalAndWrappedTypeAreNearMissesOfEachOther() throws {
        let container = DI(name: "App") { di in
            di.register(Config?.self) { _ in Config(retries: 1) }
            di.register(TokenStore.self) { _ in TokenStore(token: "t") }
        }

        let wrapped = try #require(throws: DIError.self) { try container.resolveThrowing(Config.self) }
        let optional = try #require(throws: DIError.self) { try container.resolveThrowing(TokenStore?.self) }

        #expect(wrapped.nearMisses.map(\.kind) == [.optional])
        #expect(
            wrapped.nearMisses.map(\.description) == [
                "Optional<Config> is registered (by DI.configure in \"App\"); Optional<T> and T are different keys."
            ]
        )
        #expect(optional.nearMisses.map(\.kind) == [.optional])
        #expect(optional.nearMisses.map(\.typeName) == ["TokenStore"])
    }

    @Test func anImplementationRegisteredWhereItsProtocolWasAskedForIsANearMiss() throws {
        // Given a concrete client registered only as itself
        let container = DI(name: "App") { di in
            di.registerSingleton(FakeClient.self, instance: FakeClient(tag: 1))
        }

        // When its protocol is asked for
        let error = try #require(throws: DIError.self) { try container.resolveThrowing(HTTPClient.self) }

        // Then the near miss says how to bind it
        #expect(error.nearMisses.map(\.kind) == [.implementation])
        #expect(
            error.nearMisses.map(\.description) == [
                "FakeClient is registered (by DI.configure in \"App\") and conforms to HTTPClient; "
                    + "bind it with di.bind(HTTPClient.self, to: FakeClient.self)."
            ]
        )
    }

    @Test func contributionsAreANearMissOfASingleResolve() throws {
        let container = DI(name: "App") { di in
            di.contribute(RequestInterceptor.self) { _ in LabelInterceptor(label: "a") }
        }

        let error = try #require(throws: DIError.self) {
            try container.resolveThrowing(RequestInterceptor.self)
        }

        #expect(error.nearMisses.map(\.kind) == [.multibinding])
        #expect(error.nearMisses.first?.description.hasSuffix("collect them with resolveAll.") == true)
    }

    @Test func aCycleReportsItsFullPath() throws {
        // Given A → B → C → A
        let container = DI(name: "App") { di in
            di.register(NodeA.self) { r in NodeA(next: try r.resolve()) }
            di.register(NodeB.self, scope: .singleton) { r in NodeB(next: try r.resolve()) }
            di.register(NodeC.self) { r in NodeC(next: try r.resolve()) }
        }

        // When A is resolved
        let error = try #require(throws: DIError.self) { try container.resolveThrowing(NodeA.self) }

        // Then the cycle is reported with its full path
        #expect(error.code == .dependencyCycle)
        #expect(error.path == ["NodeA", "NodeB", "NodeC", "NodeA"])
        #expect(
            error.description == """
                Dependency cycle in container "App": NodeA → NodeB → NodeC → NodeA.
                Each of these is needed again while it is being created. Break the cycle by injecting \
                Lazy<T> or Provider<T> on one of its edges, or remove one of the dependencies.
                """
        )
    }

    @Test func aCycleEnteredInTheMiddleStartsWhereItWasEntered() throws {
        let container = DI(name: "App") { di in
            di.register(NodeA.self) { r in NodeA(next: try r.resolve()) }
            di.register(NodeB.self) { r in NodeB(next: try r.resolve()) }
            di.register(NodeC.self) { r in NodeC(next: try r.resolve()) }
        }

        let error = try #require(throws: DIError.self) { try container.resolveThrowing(NodeC.self) }

        #expect(error.path == ["NodeC", "NodeA", "NodeB", "NodeC"])
    }

    @Test(arguments: [DI.Scope.unique, .singleton, .weak, .session])
    func aDiamondIsNotACycle(bottomScope: DI.Scope) throws {
        // Given Top → Left → Bottom and Top → Right → Bottom
        let container = DI { di in
            di.register(Top.self) { r in Top(left: try r.resolve(), right: try r.resolve()) }
            di.register(Left.self) { r in Left(bottom: try r.resolve()) }
            di.register(Right.self) { r in Right(bottom: try r.resolve()) }
            di.register(Bottom.self, scope: bottomScope) { _ in Bottom() }
        }

        // When the top is resolved, the shared bottom is reached twice without a cycle
        let top = try container.resolveThrowing(Top.self)

        #expect((top.left.bottom === top.right.bottom) == (bottomScope != .unique))
    }

    @Test func aFactoryErrorIsWrappedWithItsPath() throws {
        let container = DI(name: "App") { di in
            di.register(ProfileService.self) { r in ProfileService(client: try r.resolve()) }
            di.register(HTTPClient.self) { _ in throw DiskFull() }
        }

        let error = try #require(throws: DIError.self) { try container.resolveThrowing(ProfileService.self) }

        #expect(error.code == .factoryFailed)
        #expect(error.underlying is DiskFull)
        #expect(
            error.description == """
                The factory of HTTPClient (registered by DI.configure in container "App") threw: \
                the disk is full
                Resolution path: ProfileService → HTTPClient
                """
        )
    }

    #if compiler(>=6.2)  // exit tests: Swift Testing in Swift 6.2
        @Test func resolveStopsTheProgramWithTheFullMessage() async throws {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let container = DI(name: "App") { di in
                    di.register(HTTPClient.self, name: .backup) { _ in FakeClient() }
                }
                _ = container.resolve(HTTPClient.self, name: .primary)
            }

            let standardError = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(
                standardError.contains(
                    "No registration for HTTPClient named \"primary\" in container \"App\"."))
            #expect(standardError.contains("HTTPClient is registered under the name \"backup\""))
        }

        @Test func aCycleThroughInjectedPropertiesIsReportedInsteadOfOverflowingTheStack() async throws {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                DI.withOverrides { di in
                    di.register(LoopOne.self) { _ in LoopOne() }
                    di.register(LoopTwo.self) { _ in LoopTwo() }
                } operation: {
                    _ = LoopOne()
                }
            }

            let standardError = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(
                standardError.contains(
                    "Dependency cycle in container \"DI.shared (overrides)\": LoopTwo → LoopOne → LoopTwo."))
        }
    #endif
}
