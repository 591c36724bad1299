import ErrandDI
import Testing

@Suite struct LateRegistrationTests {
    @Test func aRegistrationIntoAKeptRegistrarMakesTheNextResolveThrowAndSaySo() throws {
        // Given a container whose registrar was kept past its configuration
        var kept: DI.Registrar?
        let container = DI(name: "App") { di in
            kept = di
            di.register(Config.self) { _ in Config(retries: 1) }
        }
        #expect(try container.resolveThrowing(Config.self) == Config(retries: 1))

        // When something is registered through it afterwards
        kept?.register(TokenStore.self) { _ in TokenStore(token: "late") }

        // Then the next resolve, of any type, reports the late registration
        let error = try #require(throws: DIError.self) { try container.resolveThrowing(Config.self) }
        #expect(error.code == .registrationAfterConfigure)
        #expect(error.typeName == "TokenStore")
        #expect(error.container == "App")
        #expect(
            error.description == """
                TokenStore was registered through a registrar kept from DI.configure after the \
                configuration of container "App" had returned; the container was already built, so the \
                registration was not applied.
                Register TokenStore inside the configuration closure or a DIModule; to replace a \
                binding in a test, use DI.withOverrides.
                """
        )
        let lateType = try #require(throws: DIError.self) { try container.resolveThrowing(TokenStore.self) }
        #expect(lateType.code == .registrationAfterConfigure)
    }

    #if compiler(>=6.2)  // exit tests: Swift Testing in Swift 6.2
        @Test func aCreatedSingletonIsNotHandedOutPastALateRegistration() async throws {
            // Given a singleton already created (read by the shortcut for created singletons), then
            // a registration through a kept registrar
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                var kept: DI.Registrar?
                let container = DI(name: "App") { di in
                    kept = di
                    di.register(Config.self, scope: .singleton) { _ in Config(retries: 1) }
                }
                _ = container.resolve(Config.self)
                kept?.register(TokenStore.self) { _ in TokenStore(token: "late") }

                // When the singleton is resolved again, it stops the program and says why
                _ = container.resolve(Config.self)
            }

            let standardError = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(
                standardError.contains("TokenStore was registered through a registrar kept from DI.configure")
            )
        }
    #endif

    @Test func aLateReplacementOfAnExistingBindingIsReportedNotSilentlyIgnored() throws {
        // Given a kept registrar of an override container
        var kept: DI.Registrar?
        let base = DI(name: "App") { di in di.register(HTTPClient.self) { _ in URLClient(baseURL: "real") } }
        let overridden = base.overriding { di in kept = di }

        // When a test tries to replace a binding through it after the fact
        kept?.register(HTTPClient.self, name: .primary, scope: .singleton) { _ in FakeClient(tag: 1) }

        // Then resolving says the replacement was not applied, instead of handing out the old one
        // (the error names DI.withOverrides, where the registrar came from)
        let error = try #require(throws: DIError.self) { try overridden.resolveThrowing(HTTPClient.self) }
        #expect(error.code == .registrationAfterConfigure)
        #expect(error.path == ["HTTPClient named \"primary\""])
        #expect(error.container == "App (overrides)")
        #expect(error.description.contains("kept from DI.withOverrides"))
        #expect(try base.resolveThrowing(HTTPClient.self).baseURL == "real")
    }

    @Test func verifyListsEveryLateRegistrationWithItsModule() async throws {
        // Given a module that keeps its registrar, and two late registrations through it
        let keeper = RegistrarKeeper()
        let container = DI(name: "App", modules: [keeper])
        keeper.registrar?.register(Config.self) { _ in Config(retries: 1) }
        keeper.registrar?.registerSingleton(TokenStore.self, instance: TokenStore(token: "t"))

        // When the graph is verified
        let error = try await #require(throws: DIError.self) { try await container.verify() }

        // Then both are reported, in order
        #expect(error.code == .verificationFailed)
        #expect(error.problems.map(\.code) == [.registrationAfterConfigure, .registrationAfterConfigure])
        #expect(error.problems.map(\.typeName) == ["Config", "TokenStore"])
        #expect(error.problems[0].description.contains("Config was registered through a registrar kept"))
    }

    @Test func aChildResolvesThroughAParentWithALateRegistrationOnlyWithTheError() throws {
        // Given a parent with a late registration and a child of it
        var kept: DI.Registrar?
        let parent = DI(name: "App") { di in
            kept = di
            di.register(Config.self) { _ in Config(retries: 1) }
        }
        let child = parent.child(name: "Screen") { di in di.register(Session.self) { _ in Session(number: 1) }
        }
        kept?.register(TokenStore.self) { _ in TokenStore(token: "late") }

        // Then what the child registers itself resolves, and what it asks of the parent reports it
        #expect(try child.resolveThrowing(Session.self).number == 1)
        let error = try #require(throws: DIError.self) { try child.resolveThrowing(Config.self) }
        #expect(error.code == .registrationAfterConfigure)
        #expect(error.container == "App")
    }
}

/// A module that keeps the registrar it was given, as a mistake would.
private final class RegistrarKeeper: DIModule {
    var registrar: DI.Registrar?

    func register(in di: DI.Registrar) {
        registrar = di
    }
}
