import ErrandDI
import Testing

/// An owner that injects the client, to see which container `@Inject` uses.
private final class ClientOwner {
    @Inject var client: HTTPClient
}

/// An owner of a view model, as a SwiftUI view is.
@MainActor
private struct ProfileView {
    @HiltViewModel(ProfileViewModel.self) var viewModel
}

/// A container of a test's own, with a client tagged `tag`.
private func makeContainer(tag: Int) -> DI {
    DI(name: "Test \(tag)") { di in
        di.register(HTTPClient.self, scope: .singleton) { _ in FakeClient(tag: tag) }
        di.register(ProfileService.self) { r in ProfileService(client: try r.resolve()) }
        di.registerMainActor(ProfileViewModel.self) { r in ProfileViewModel(service: try r.resolve()) }
    }
}

/// The tag of the client `@Inject` finds now, or -1.
private func injectedTag() -> Int {
    (ClientOwner().client as? FakeClient)?.tag ?? -1
}

@Suite struct CurrentContainerTests {
    @Test func aContainerOfTheTestsOwnIsCurrentForTheBodyOnly() throws {
        // Given a container built by the test, not the shared one
        let container = makeContainer(tag: 7)
        let outside = DI.current

        // When it is made current for a body
        let tag = DI.withCurrent(container) { () -> Int in
            #expect(DI.current === container)
            return injectedTag()
        }

        // Then @Inject used it there, and nothing changed outside
        #expect(tag == 7)
        #expect(DI.current === outside)
        #expect(DI.current !== container)
    }

    @Test func aHundredParallelTasksEachSeeTheirOwnContainer() async throws {
        // Given 100 tasks, each with a container of its own made current
        let seen = await withTaskGroup(of: (Int, [Int]).self) { group in
            for tag in 0..<100 {
                group.addTask {
                    await DI.withCurrent(makeContainer(tag: tag)) {
                        // When each resolves several times, with suspension points in between
                        var tags: [Int] = []
                        for _ in 0..<3 {
                            tags.append(injectedTag())
                            await Task.yield()
                            tags.append(
                                (try? DI.current.resolveThrowing(HTTPClient.self) as? FakeClient)?.tag ?? -2)
                        }
                        return (tag, tags)
                    }
                }
            }
            return await group.reduce(into: [Int: [Int]]()) { $0[$1.0] = $1.1 }
        }

        // Then every task saw its own container and nothing else
        #expect(seen.count == 100)
        for (tag, tags) in seen {
            #expect(tags == Array(repeating: tag, count: 6))
        }
    }

    @Test @MainActor func hiltViewModelUsesTheCurrentContainer() async throws {
        let container = makeContainer(tag: 3)

        // The sync form, and the async form keeping the main actor across a suspension
        let syncTag = DI.withCurrent(container) {
            (ProfileView().viewModel.service.client as? FakeClient)?.tag
        }
        let asyncTag = await DI.withCurrent(container) {
            await Task.yield()
            return (ProfileView().viewModel.service.client as? FakeClient)?.tag
        }

        #expect(syncTag == 3)
        #expect(asyncTag == 3)
    }

    @Test func overridesInsideBuildOnTheCurrentContainer() throws {
        // Given a container of the test's own made current
        let container = makeContainer(tag: 1)

        try DI.withCurrent(container) { () throws in
            // When a binding is overridden inside it
            try DI.withOverrides { di in
                di.register(HTTPClient.self, scope: .singleton) { _ in FakeClient(tag: 2) }
            } operation: { () throws in
                // Then the override wins and the rest comes from the container
                #expect(injectedTag() == 2)
                #expect((try DI.current.resolveThrowing(ProfileService.self).client as? FakeClient)?.tag == 2)
            }
            #expect(injectedTag() == 1)
        }
    }

    @Test func providersAndLazyValuesMadeInsideUseTheCurrentContainer() throws {
        let container = makeContainer(tag: 4)

        let (provider, lazy) = DI.withCurrent(container) {
            (Provider<HTTPClient>(), Lazy<ProfileService>())
        }

        #expect((try provider() as? FakeClient)?.tag == 4)
        #expect((try lazy.get().client as? FakeClient)?.tag == 4)
    }
}
