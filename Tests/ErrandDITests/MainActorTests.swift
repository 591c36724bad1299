import ErrandDI
import Testing

/// Owners of view models, as SwiftUI views are.
@MainActor
private struct ProfileView {
    @HiltViewModel(ProfileViewModel.self) var viewModel
}

@MainActor
private struct EditProfileView {
    @HiltViewModel(EditProfileViewModel.self) var viewModel
}

@Suite struct MainActorTests {
    /// A container with a main-actor view model and a view-model-scoped form state.
    private static func makeContainer(formRuns: Counter = Counter()) -> DI {
        DI(name: "App") { di in
            di.register(HTTPClient.self, scope: .singleton) { _ in FakeClient() }
            di.register(ProfileService.self) { r in ProfileService(client: try r.resolve()) }
            di.registerMainActor(ProfileViewModel.self) { r in ProfileViewModel(service: try r.resolve()) }
            di.register(FormState.self, scope: .viewModel) { _ in FormState(number: formRuns.increment()) }
            di.register(FormValidator.self) { r in FormValidator(state: try r.resolve()) }
            di.registerMainActor(EditProfileViewModel.self) { r in
                EditProfileViewModel(state: try r.resolve(), validator: try r.resolve())
            }
        }
    }

    @Test @MainActor func aMainActorTypeResolvesOnTheMainActor() throws {
        let container = Self.makeContainer()

        let viewModel = try container.resolveOnMainActor(ProfileViewModel.self)
        viewModel.title = "Edited"

        #expect(viewModel.service.client is FakeClient)
        #expect(viewModel.title == "Edited")
    }

    @Test func aMainActorTypeIsNotResolvedOffTheMainActor() throws {
        // A nonisolated resolve cannot call the main-actor factory, so it reports instead.
        let container = Self.makeContainer()

        let error = try #require(throws: DIError.self) {
            try container.resolveThrowing(ProfileViewModel.self)
        }

        #expect(error.code == .mainActorOnly)
        #expect(
            error.description == """
                ProfileViewModel is registered with registerMainActor (by DI.configure in container \
                "App"), so only code on the main actor can resolve it.
                Resolution path: ProfileViewModel
                Resolve it with resolveOnMainActor or @HiltViewModel from @MainActor code, or register \
                it with register if it does not need the main actor.
                """
        )
    }

    @Test @MainActor func hiltViewModelGivesEachOwnerItsOwnViewModel() {
        DI.withOverrides { di in
            di.register(HTTPClient.self, scope: .singleton) { _ in FakeClient() }
            di.register(ProfileService.self) { r in ProfileService(client: try r.resolve()) }
            di.registerMainActor(ProfileViewModel.self) { r in ProfileViewModel(service: try r.resolve()) }
        } operation: {
            let first = ProfileView()
            let second = ProfileView()

            let firstClient = first.viewModel.service.client as? FakeClient
            let secondClient = second.viewModel.service.client as? FakeClient
            #expect(first.viewModel !== second.viewModel)
            #expect(firstClient === secondClient)
        }
    }

    @Test @MainActor func viewModelScopedValuesAreSharedInsideOneViewModelOnly() throws {
        // Given a form state scoped to the view model and used twice in its graph
        let formRuns = Counter()
        let container = Self.makeContainer(formRuns: formRuns)

        // When two owners get their view models
        let first = EditProfileView(viewModel: HiltViewModel(EditProfileViewModel.self, container: container))
        let second = try container.makeViewModel(EditProfileViewModel.self)

        // Then each view model shares one state with its validator, and the two have different ones
        #expect(first.viewModel.state === first.viewModel.validator.state)
        #expect(second.state === second.validator.state)
        #expect(first.viewModel.state !== second.state)
        #expect(formRuns.value == 2)
    }

    @Test @MainActor func aViewModelWithASharedScopeIsRejected() throws {
        let container = DI(name: "App") { di in
            di.registerMainActor(FormState.self, scope: .singleton) { _ in FormState(number: 1) }
        }

        let error = try #require(throws: DIError.self) { try container.makeViewModel(FormState.self) }

        #expect(error.code == .invalidScope)
        #expect(error.description.contains("@HiltViewModel needs a new view model for each owner"))
    }

    @Test func viewModelScopeOutsideAViewModelIsUnique() throws {
        let container = Self.makeContainer()

        let first = try container.resolveThrowing(FormState.self)
        let second = try container.resolveThrowing(FormState.self)

        #expect(first !== second)
    }

    @Test @MainActor func mainActorSingletonsAreCachedOnTheMainActor() throws {
        let runs = Counter()
        let container = DI { di in
            di.registerMainActor(Session.self, scope: .singleton) { _ in Session(number: runs.increment()) }
        }
        let child = container.child(name: "Screen")

        #expect(
            try child.resolveOnMainActor(Session.self) === (try container.resolveOnMainActor(Session.self)))
        #expect(runs.value == 1)
    }
}
