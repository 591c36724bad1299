import ErrandDI
import Testing

/// An owner that injects the client, to see which container `@Inject` uses.
private final class ClientOwner {
    @Inject var client: HTTPClient
}

@Suite struct OverrideTests {
    @Test func aHundredConcurrentTasksEachSeeOnlyTheirOwnOverride() async throws {
        // Given 100 tasks that each override the same type with a different value
        let seen = await withTaskGroup(of: (Int, [Int]).self) { group in
            for tag in 0..<100 {
                group.addTask {
                    await DI.withOverrides { di in
                        di.register(HTTPClient.self, scope: .singleton) { _ in FakeClient(tag: tag) }
                    } operation: {
                        // When each resolves several times, with suspension points in between
                        var tags: [Int] = []
                        for _ in 0..<5 {
                            tags.append((ClientOwner().client as? FakeClient)?.tag ?? -1)
                            await Task.yield()
                            tags.append(
                                (try? DI.current.resolveThrowing(HTTPClient.self) as? FakeClient)?.tag ?? -2)
                        }
                        return (tag, tags)
                    }
                }
            }
            var seen: [Int: [Int]] = [:]
            for await (tag, tags) in group {
                seen[tag] = tags
            }
            return seen
        }

        // Then every task saw its own value and nothing else
        #expect(seen.count == 100)
        for (tag, tags) in seen {
            #expect(tags == Array(repeating: tag, count: 10))
        }
    }

    @Test func overridesHaveSingletonsOfTheirOwn() async throws {
        // Given a base container with a singleton
        let runs = Counter()
        let base = DI(name: "App") { di in
            di.register(Session.self, scope: .singleton) { _ in Session(number: runs.increment()) }
        }
        let baseSession = try base.resolveThrowing(Session.self)

        // When two override containers are made from it
        let first = base.overriding { _ in }
        let second = base.overriding { di in di.retryCount = 1 }

        // Then each creates its own singleton, and the base keeps its own
        let firstSession = try first.resolveThrowing(Session.self)
        let secondSession = try second.resolveThrowing(Session.self)
        #expect(firstSession !== baseSession)
        #expect(secondSession !== baseSession)
        #expect(firstSession !== secondSession)
        #expect(try base.resolveThrowing(Session.self) === baseSession)
        #expect(runs.value == 3)
        #expect(first.name == "App (overrides)")
    }

    @Test func parallelTestsWithDifferentOverridesDoNotSeeEachOther() async throws {
        // Two "tests" running at once, each with its own override and singleton
        async let left: (Int, ObjectIdentifier) = DI.withOverrides { di in
            di.register(HTTPClient.self, scope: .singleton) { _ in FakeClient(tag: 1) }
        } operation: {
            try await Task.sleep(for: .milliseconds(20))
            let client = try DI.current.resolveThrowing(HTTPClient.self)
            return ((client as? FakeClient)?.tag ?? -1, ObjectIdentifier(client as AnyObject))
        }
        async let right: (Int, ObjectIdentifier) = DI.withOverrides { di in
            di.register(HTTPClient.self, scope: .singleton) { _ in FakeClient(tag: 2) }
        } operation: {
            let client = try DI.current.resolveThrowing(HTTPClient.self)
            try await Task.sleep(for: .milliseconds(20))
            return ((client as? FakeClient)?.tag ?? -1, ObjectIdentifier(client as AnyObject))
        }

        let (leftResult, rightResult) = try await (left, right)

        #expect(leftResult.0 == 1)
        #expect(rightResult.0 == 2)
        #expect(leftResult.1 != rightResult.1)
    }

    @Test func theSyncFormOverridesForItsBodyOnly() throws {
        let outside = DI.current

        let tag = try DI.withOverrides { di in
            di.register(HTTPClient.self) { _ in FakeClient(tag: 5) }
        } operation: { () throws in
            #expect(DI.current !== outside)
            return (try DI.current.resolveThrowing(HTTPClient.self) as? FakeClient)?.tag
        }

        #expect(tag == 5)
        #expect(DI.current === outside)
    }

    @Test func overridesNestAndSettingsCanBeOverridden() throws {
        try DI.withOverrides { di in
            di.baseURL = "https://staging.example.com"
            di.register(HTTPClient.self) { r in URLClient(baseURL: r.baseURL) }
            di.register(Config.self) { _ in Config(retries: 1) }
        } operation: { () throws in
            try DI.withOverrides { di in
                di.register(Config.self) { _ in Config(retries: 2) }
            } operation: { () throws in
                #expect(try DI.current.resolveThrowing(Config.self) == Config(retries: 2))
                #expect(
                    try DI.current.resolveThrowing(HTTPClient.self).baseURL == "https://staging.example.com")
            }
            #expect(try DI.current.resolveThrowing(Config.self) == Config(retries: 1))
        }
    }

    @Test func overridesReachFactoriesRegisteredInTheBase() throws {
        // Given a base service that needs a client, and an override of the client only
        let base = DI { di in
            di.register(HTTPClient.self) { _ in URLClient(baseURL: "https://real.example.com") }
            di.register(ProfileService.self) { r in ProfileService(client: try r.resolve()) }
        }
        let child = base.child(name: "Screen")

        // When the service is resolved from an override of the child
        let overridden = child.overriding { di in di.register(HTTPClient.self) { _ in FakeClient(tag: 3) } }
        let service = try overridden.resolveThrowing(ProfileService.self)

        // Then the base's factory received the override
        #expect((service.client as? FakeClient)?.tag == 3)
    }

    @Test func childTasksInheritTheOverrideContainer() async throws {
        let tags = try await DI.withOverrides { di in
            di.register(HTTPClient.self) { _ in FakeClient(tag: 9) }
        } operation: {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        (try DI.current.resolveThrowing(HTTPClient.self) as? FakeClient)?.tag ?? -1
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }

        #expect(tags == Array(repeating: 9, count: 10))
    }
}
