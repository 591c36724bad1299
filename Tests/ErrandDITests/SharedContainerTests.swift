import ErrandDI
import ErrandSync
import Foundation
import Testing

/// How many times the hammer replaces the shared container, and how many threads read it.
private let replacements = 1_000
private let readerCount = 8

/// A reference that does not keep its container alive.
private struct Weak {
    weak var container: DI?

    init(_ container: DI) {
        self.container = container
    }
}

/// Replaces the shared container `replacements` times while `readerCount` threads resolve from
/// `DI.current`, as `@Inject` does, until they see the last one.
///
/// Container `g` has a singleton `FakeClient(tag: g)` and a unique `ProfileService` built on it.
/// Each reader checks that every client it gets belongs to a configured container and that the
/// tags it sees never go back (one writer, whose publication readers acquire), every
/// container's singleton is created at most once, and no replaced container is freed.
///
/// - Returns: What went wrong, or `nil`.
private func hammerTheSharedContainer() -> String? {
    let creations = Locked([Int](repeating: 0, count: replacements + 1))
    let problems = Locked<[String]>([])
    // Weak references: a replaced container must outlive its replacement, since a reader may
    // have loaded its pointer and not yet retained it.
    var configured: [Weak] = []
    func configure(_ generation: Int) {
        let container = DI.configure(name: "App \(generation)") { di in
            di.register(HTTPClient.self, scope: .singleton) { _ in
                creations.withLock { $0[generation] += 1 }
                return FakeClient(tag: generation)
            }
            di.register(ProfileService.self) { r in ProfileService(client: try r.resolve()) }
        }
        configured.append(Weak(container))
    }
    configure(0)

    let started = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    for reader in 0..<readerCount {
        Thread {
            started.signal()
            var last = 0
            var reads = 0
            while last < replacements, reads < 50_000_000 {
                reads += 1
                let tag = (DI.current.resolve(HTTPClient.self) as? FakeClient)?.tag ?? -1
                let serviceTag = (DI.current.resolve(ProfileService.self).client as? FakeClient)?.tag ?? -1
                guard (0...replacements).contains(tag), tag >= last, serviceTag >= tag else {
                    problems.withLock {
                        $0.append("reader \(reader) saw \(tag), then \(serviceTag), after \(last)")
                    }
                    break
                }
                last = serviceTag
            }
            if last != replacements {
                problems.withLock { $0.append("reader \(reader) stopped at \(last) after \(reads) reads") }
            }
            finished.signal()
        }.start()
    }
    for _ in 0..<readerCount {
        started.wait()
    }
    for generation in 1...replacements {
        configure(generation)
    }
    for _ in 0..<readerCount {
        finished.wait()
    }

    var found = problems.withLock { $0 }
    if let twice = creations.withLock({ $0.firstIndex { $0 > 1 } }) {
        found.append("the singleton of container \(twice) was created more than once")
    }
    if let freed = configured.firstIndex(where: { $0.container == nil }) {
        found.append("container \(freed) was freed after it was replaced")
    }
    if DI.shared.name != "App \(replacements)" {
        found.append("DI.shared is \(DI.shared.name), not the last container configured")
    }
    return found.isEmpty ? nil : found.joined(separator: "\n")
}

/// The ways to bind a container to a task, each tried first thing in a fresh process.
private enum FirstBinding {
    case withCurrent, withCurrentAsync, withOverrides, withOverridesAsync

    /// Whether `DI.current` inside the binding is the bound container, and ``DI/shared`` after.
    func isSeen() async -> Bool {
        let container = DI(name: "Test") { di in
            di.register(HTTPClient.self, scope: .singleton) { _ in FakeClient(tag: 5) }
        }
        let overrides: (DI.Registrar) -> Void = { di in
            di.register(HTTPClient.self, scope: .singleton) { _ in FakeClient(tag: 5) }
        }
        func tag() -> Int? { (try? DI.current.resolveThrowing(HTTPClient.self) as? FakeClient)?.tag }
        let inside: Bool
        switch self {
        case .withCurrent: inside = DI.withCurrent(container) { DI.current === container }
        case .withCurrentAsync:
            inside = await DI.withCurrent(container) {
                await Task.yield()
                return DI.current === container
            }
        case .withOverrides: inside = DI.withOverrides(overrides) { tag() == 5 }
        case .withOverridesAsync:
            inside = await DI.withOverrides(overrides) {
                await Task.yield()
                return tag() == 5
            }
        }
        return inside && DI.current === DI.shared && tag() == nil
    }
}

@Suite struct SharedContainerTests {
    // `DI.current` skips the task-local lookup until a container is first bound, so each way of
    // binding one is checked as the first binding of a process of its own.

    #if compiler(>=6.2)  // exit tests: Swift Testing in Swift 6.2
        @Test func theFirstWithCurrentOfAProcessIsSeen() async {
            await #expect(processExitsWith: .success) {
                if await !FirstBinding.withCurrent.isSeen() { exit(1) }
            }
        }

        @Test func theFirstAsyncWithCurrentOfAProcessIsSeen() async {
            await #expect(processExitsWith: .success) {
                if await !FirstBinding.withCurrentAsync.isSeen() { exit(1) }
            }
        }

        @Test func theFirstWithOverridesOfAProcessIsSeen() async {
            await #expect(processExitsWith: .success) {
                if await !FirstBinding.withOverrides.isSeen() { exit(1) }
            }
        }

        @Test func theFirstAsyncWithOverridesOfAProcessIsSeen() async {
            await #expect(processExitsWith: .success) {
                if await !FirstBinding.withOverridesAsync.isSeen() { exit(1) }
            }
        }

        @Test func replacingTheSharedContainerWhileEightThreadsResolveFromItIsSafe() async {
            // In a process of its own: it replaces the shared container, which other suites read.
            let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                if let problem = hammerTheSharedContainer() {
                    FileHandle.standardError.write(Data((problem + "\n").utf8))
                    exit(1)
                }
            }
            let standardError = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(standardError.isEmpty, "\(standardError)")
        }
    #endif
}
