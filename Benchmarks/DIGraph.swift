import ErrandDI

/// The object graph the DI scenario resolves, its container, and its resolve loops.
///
/// Every type is a final class holding a checksum computed from what it was given, so reading
/// one integer proves which graph was built: a `Client` carries its id, a `Repository` adds 10 to
/// its client's, and each level of the five-level chain adds 1 to the next one's.
enum DIGraph {
    final class Client: Sendable {
        let checksum: Int
        init(id: Int) { checksum = id }
    }

    final class Repository: Sendable {
        let client: Client
        let checksum: Int
        init(client: Client) {
            self.client = client
            checksum = client.checksum + 10
        }
    }

    final class Level5: Sendable {
        let checksum = 1
    }

    final class Level4: Sendable {
        let next: Level5
        let checksum: Int
        init(next: Level5) {
            self.next = next
            checksum = next.checksum + 1
        }
    }

    final class Level3: Sendable {
        let next: Level4
        let checksum: Int
        init(next: Level4) {
            self.next = next
            checksum = next.checksum + 1
        }
    }

    final class Level2: Sendable {
        let next: Level3
        let checksum: Int
        init(next: Level3) {
            self.next = next
            checksum = next.checksum + 1
        }
    }

    final class Level1: Sendable {
        let next: Level2
        let checksum: Int
        init(next: Level2) {
            self.next = next
            checksum = next.checksum + 1
        }
    }

    static let clientID = 1
    static let overrideID = 2
    static let repositoryChecksum = clientID + 10
    static let levelChecksum = 5

    /// The bindings: the client a singleton, everything else unique (the default scope).
    static func register(in di: DI.Registrar) {
        di.register(Client.self, scope: .singleton) { _ in Client(id: clientID) }
        di.register(Repository.self) { r in Repository(client: try r.resolve()) }
        di.register(Level5.self) { _ in Level5() }
        di.register(Level4.self) { r in Level4(next: try r.resolve()) }
        di.register(Level3.self) { r in Level3(next: try r.resolve()) }
        di.register(Level2.self) { r in Level2(next: try r.resolve()) }
        di.register(Level1.self) { r in Level1(next: try r.resolve()) }
    }

    /// A container of its own with the bindings; its singleton is already created.
    static func container() -> DI {
        let container = DI(name: "Benchmarks") { register(in: $0) }
        _ = container.resolve(Client.self)
        return container
    }

    @inline(never)
    static func resolveClient(from container: DI, _ count: Int, into sink: DISink) {
        for _ in 0..<count {
            let client = container.resolve(Client.self)
            sink.keep(client, checksum: client.checksum)
        }
    }

    /// Resolves from `DI.current` by hand: outside overrides, the shared container.
    @inline(never)
    static func resolveCurrentClient(_ count: Int, into sink: DISink) {
        for _ in 0..<count {
            let client = DI.current.resolve(Client.self)
            sink.keep(client, checksum: client.checksum)
        }
    }

    /// Injects with `@Inject`, as an app's types do: outside overrides, from the shared container.
    @inline(never)
    static func injectClient(_ count: Int, into sink: DISink) {
        for _ in 0..<count {
            @Inject var client: Client
            sink.keep(client, checksum: client.checksum)
        }
    }

    /// Resolves from `DI.current` inside `DI.withOverrides`, where the client is replaced.
    ///
    /// The override container is built and its singleton created before the loop (a few µs,
    /// inside the timed sample but under a thousandth of it).
    @inline(never)
    static func resolveOverriddenClient(_ count: Int, into sink: DISink) {
        DI.withOverrides { di in
            di.register(Client.self, scope: .singleton) { _ in Client(id: overrideID) }
        } operation: {
            _ = DI.current.resolve(Client.self)
            for _ in 0..<count {
                let client = DI.current.resolve(Client.self)
                sink.keep(client, checksum: client.checksum)
            }
        }
    }

    @inline(never)
    static func resolveRepository(from container: DI, _ count: Int, into sink: DISink) {
        for _ in 0..<count {
            let repository = container.resolve(Repository.self)
            sink.keep(repository, checksum: repository.checksum)
        }
    }

    @inline(never)
    static func resolveLevels(from container: DI, _ count: Int, into sink: DISink) {
        for _ in 0..<count {
            let top = container.resolve(Level1.self)
            sink.keep(top, checksum: top.checksum)
        }
    }
}

/// The same work written by hand, without a container.
enum DIBaseline {
    private static let client = DIGraph.Client(id: DIGraph.clientID)
    private static let override = DIGraph.Client(id: DIGraph.overrideID)
    /// Made by a call the optimiser keeps, so it is a heap object, as a container's singleton is:
    /// the `static let` above is laid out by the compiler as an immortal object, whose reference
    /// count is never touched.
    private static let madeAtRunTime = makeClient()

    @inline(never)
    private static func makeClient() -> DIGraph.Client {
        DIGraph.Client(id: DIGraph.clientID)
    }

    /// A hand-rolled singleton: a `static let`, read through a call the optimiser keeps.
    @inline(never)
    static func sharedClient() -> DIGraph.Client {
        client
    }

    /// A hand-rolled singleton made at run time, read through a call the optimiser keeps.
    @inline(never)
    static func clientMadeAtRunTime() -> DIGraph.Client {
        madeAtRunTime
    }

    /// The hand-rolled singleton a test would substitute.
    @inline(never)
    static func substitutedClient() -> DIGraph.Client {
        override
    }

    @inline(never)
    static func readClient(_ count: Int, into sink: DISink) {
        for _ in 0..<count {
            let client = sharedClient()
            sink.keep(client, checksum: client.checksum)
        }
    }

    @inline(never)
    static func readClientMadeAtRunTime(_ count: Int, into sink: DISink) {
        for _ in 0..<count {
            let client = clientMadeAtRunTime()
            sink.keep(client, checksum: client.checksum)
        }
    }

    @inline(never)
    static func readOverride(_ count: Int, into sink: DISink) {
        for _ in 0..<count {
            let client = substitutedClient()
            sink.keep(client, checksum: client.checksum)
        }
    }

    @inline(never)
    static func makeRepository(_ count: Int, into sink: DISink) {
        for _ in 0..<count {
            let repository = DIGraph.Repository(client: sharedClient())
            sink.keep(repository, checksum: repository.checksum)
        }
    }

    @inline(never)
    static func makeLevels(_ count: Int, into sink: DISink) {
        for _ in 0..<count {
            let top = DIGraph.Level1(
                next: DIGraph.Level2(next: DIGraph.Level3(next: DIGraph.Level4(next: DIGraph.Level5()))))
            sink.keep(top, checksum: top.checksum)
        }
    }
}
