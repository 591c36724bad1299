import ErrandDI
import Testing

@Suite struct ChildContainerTests {
    @Test func aChildFallsBackToItsParent() throws {
        // Given a parent with a client and a child with a service that needs it
        let parent = DI(name: "App") { di in
            di.register(HTTPClient.self, scope: .singleton) { _ in FakeClient(tag: 1) }
        }
        let child = parent.child(name: "Profile") { di in
            di.register(ProfileService.self) { r in ProfileService(client: try r.resolve()) }
        }

        // When the child resolves the service and the client
        let service = try child.resolveThrowing(ProfileService.self)
        let client = try child.resolveThrowing(HTTPClient.self)

        // Then the client is the parent's singleton
        #expect(service.client as? FakeClient === client as? FakeClient)
        #expect(client as? FakeClient === (try parent.resolveThrowing(HTTPClient.self)) as? FakeClient)
        #expect(try parent.resolveOptional(ProfileService.self) == nil)
    }

    @Test func aChildRegistrationWinsOverItsParents() throws {
        let parent = DI { di in di.register(HTTPClient.self) { _ in FakeClient(tag: 1) } }
        let child = parent.child(name: "Test") { di in
            di.register(HTTPClient.self) { _ in FakeClient(tag: 2) }
        }

        #expect((try child.resolveThrowing(HTTPClient.self) as? FakeClient)?.tag == 2)
        #expect((try parent.resolveThrowing(HTTPClient.self) as? FakeClient)?.tag == 1)
    }

    @Test func aChildHasSingletonsOfItsOwn() throws {
        let runs = Counter()
        let parent = DI { _ in }
        let first = parent.child(name: "First") { di in
            di.register(Session.self, scope: .singleton) { _ in Session(number: runs.increment()) }
        }
        let second = parent.child(name: "Second") { di in
            di.register(Session.self, scope: .singleton) { _ in Session(number: runs.increment()) }
        }

        #expect(try first.resolveThrowing(Session.self) !== (try second.resolveThrowing(Session.self)))
        #expect(try first.resolveThrowing(Session.self) === (try first.resolveThrowing(Session.self)))
    }

    @Test func aParentBindingIsBuiltFromTheParentsBindings() throws {
        // Given a parent service that needs a client, and a child that registers another client
        let parent = DI { di in
            di.register(HTTPClient.self) { _ in FakeClient(tag: 1) }
            di.register(ProfileService.self) { r in ProfileService(client: try r.resolve()) }
        }
        let child = parent.child(name: "Child") { di in
            di.register(HTTPClient.self) { _ in FakeClient(tag: 2) }
        }

        // When the child resolves the parent's service
        let service = try child.resolveThrowing(ProfileService.self)

        // Then the service got the parent's client, as a Hilt parent component would
        #expect((service.client as? FakeClient)?.tag == 1)
    }

    @Test func aChildStartsWithItsParentsSettings() {
        let parent = DI { di in
            di.baseURL = "https://api.example.com"
            di.retryCount = 9
        }
        let child = parent.child(name: "Child") { di in di.retryCount = 1 }

        #expect(child.baseURL == "https://api.example.com")
        #expect(child.retryCount == 1)
        #expect(parent.retryCount == 9)
        #expect(child.parent === parent)
        #expect(child.name == "Child")
    }

    @Test func aMissingRegistrationInAChildNamesTheParentsSearched() throws {
        let parent = DI(name: "App") { _ in }
        let child = parent.child(name: "Profile")

        let error = try #require(throws: DIError.self) { try child.resolveThrowing(Config.self) }

        #expect(error.container == "Profile")
        #expect(
            error.description.hasPrefix(
                "No registration for Config in container \"Profile\" or its parents \"App\"."))
    }
}
