import Dispatch
import ErrandDI
import ErrandSync
import Foundation
import Testing

/// A module as an app writes one.
private struct NetworkModule: DIModule {
    func register(in di: DI.Registrar) {
        di.register(HTTPClient.self, scope: .singleton) { r in URLClient(baseURL: r.baseURL) }
        di.contribute(RequestInterceptor.self) { _ in LabelInterceptor(label: "auth") }
        di.contribute(RequestInterceptor.self) { _ in LabelInterceptor(label: "retry") }
    }
}

private struct ProfileModule: DIModule {
    func register(in di: DI.Registrar) {
        di.register(ProfileService.self) { r in ProfileService(client: try r.resolve()) }
        di.contribute(RequestInterceptor.self) { _ in LabelInterceptor(label: "logging") }
    }
}

@Suite struct ModuleTests {
    @Test func modulesRegisterIntoTheContainer() throws {
        let container = DI(modules: [NetworkModule(), ProfileModule()]) { di in
            di.baseURL = "https://api.example.com"
        }

        let service = try container.resolveThrowing(ProfileService.self)

        #expect(service.client.baseURL == "https://api.example.com")
    }

    @Test func configureModulesSetsTheSharedContainer() throws {
        // The only test that touches the shared container; others use their own containers or
        // task-local overrides, so running in parallel with them is safe.
        let configured = DI.configure(name: "App", modules: [NetworkModule(), ProfileModule()]) { di in
            di.baseURL = "https://shared.example.com"
        }

        #expect(DI.shared === configured)
        #expect(DI.current === configured)
        #expect(
            try configured.resolveThrowing(ProfileService.self).client.baseURL == "https://shared.example.com"
        )

        // Configuring again replaces it for this thread, which has read it already, and for others
        let replaced = DI.configure(name: "App 2")
        #expect(DI.shared === replaced)
        let seenElsewhere = Locked<DI?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            seenElsewhere.withLock { $0 = DI.shared }
            done.signal()
        }.start()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(seenElsewhere.withLock { $0 } === replaced)
    }

    @Test func multibindingsCollectContributionsInRegistrationOrder() throws {
        // Given contributions from two modules and from the configure closure
        let container = DI(modules: [NetworkModule(), ProfileModule()]) { di in
            di.contribute(RequestInterceptor.self) { _ in LabelInterceptor(label: "metrics") }
        }

        // When they are collected
        let interceptors = try container.resolveAll(RequestInterceptor.self)

        // Then every contribution is there, in registration order
        #expect(interceptors.map(\.label) == ["auth", "retry", "logging", "metrics"])
    }

    @Test func aChildsContributionsFollowItsParents() throws {
        let parent = DI(modules: [NetworkModule()])
        let child = parent.child(name: "Screen") { di in
            di.contribute(RequestInterceptor.self) { _ in LabelInterceptor(label: "screen") }
        }

        #expect(try child.resolveAll(RequestInterceptor.self).map(\.label) == ["auth", "retry", "screen"])
        #expect(try parent.resolveAll(RequestInterceptor.self).map(\.label) == ["auth", "retry"])
    }

    @Test func multibindingsAreQualifiedAndMayBeScoped() throws {
        let runs = Counter()
        let container = DI { di in
            di.contribute(Session.self, name: .uploads, scope: .singleton) { _ in
                Session(number: runs.increment())
            }
            di.contribute(Session.self, name: .uploads) { _ in Session(number: 100) }
        }

        let first = try container.resolveAll(Session.self, name: .uploads)
        let second = try container.resolveAll(Session.self, name: .uploads)

        #expect(first.map(\.number) == [1, 100])
        #expect(first[0] === second[0])
        #expect(first[1] !== second[1])
        #expect(try container.resolveAll(Session.self).isEmpty)
    }

    @Test func errorsNameTheModuleThatRegistered() throws {
        let container = DI(name: "App", modules: [NetworkModule()])

        let error = try #require(throws: DIError.self) {
            try container.resolveThrowing(HTTPClient.self, name: .primary)
        }

        #expect(error.nearMisses.map(\.origin) == ["NetworkModule"])
        #expect(error.nearMisses.map(\.kind) == [.otherName])
    }
}
