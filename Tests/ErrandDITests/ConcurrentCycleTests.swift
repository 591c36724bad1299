import Dispatch
import ErrandDI
import ErrandSync
import ErrandTestSupport
import Foundation
import Testing

/// Two singletons that need each other.
final class Ping: Sendable {
    let pong: Pong
    init(pong: Pong) { self.pong = pong }
}

final class Pong: Sendable {
    let ping: Ping
    init(ping: Ping) { self.ping = ping }
}

/// A five-level graph with a diamond: Level1 → Level2, Level3 → Level4 → Level5.
final class Level5: Sendable {}

final class Level4: Sendable {
    let next: Level5
    init(next: Level5) { self.next = next }
}

final class Level3: Sendable {
    let next: Level4
    init(next: Level4) { self.next = next }
}

final class Level2: Sendable {
    let next: Level4
    init(next: Level4) { self.next = next }
}

final class Level1: Sendable {
    let left: Level2
    let right: Level3
    init(left: Level2, right: Level3) {
        self.left = left
        self.right = right
    }
}

/// Runs each job on a thread of its own (not the cooperative pool, which blocked factories could
/// starve) and waits for all of them, twenty seconds at most.
///
/// - Parameter jobs: The jobs; each returns its outcome.
/// - Returns: The outcomes in the order of `jobs`, or `nil` if some job did not finish in time.
private func runOnThreads<Outcome: Sendable>(_ jobs: [@Sendable () -> Outcome]) async -> [Outcome]? {
    await offPool { waitForThreads(jobs) }
}

/// ``runOnThreads(_:)``'s blocking part.
private func waitForThreads<Outcome: Sendable>(_ jobs: [@Sendable () -> Outcome]) -> [Outcome]? {
    let outcomes = Locked<[Int: Outcome]>([:])
    let finished = DispatchSemaphore(value: 0)
    for (index, job) in jobs.enumerated() {
        Thread {
            let outcome = job()
            outcomes.withLock { $0[index] = outcome }
            finished.signal()
        }.start()
    }
    for _ in jobs where finished.wait(timeout: .now() + 20) == .timedOut {
        return nil
    }
    return outcomes.withLock { outcomes in jobs.indices.compactMap { outcomes[$0] } }
}

/// The error of a resolve, or `nil` if it succeeded.
private func failure<T>(_ resolve: () throws(DIError) -> T) -> DIError? {
    do {
        _ = try resolve()
        return nil
    } catch {
        return error
    }
}

@Suite struct ConcurrentCycleTests {
    @Test func aCycleFirstResolvedFromTwoThreadsAtOnceIsReportedOnBothInsteadOfDeadlocking() async throws {
        // Given singletons Ping → Pong → Ping whose factories each wait until the other has
        // started, so that each thread holds one singleton's creation while it asks for the other
        let start = StartLine(runners: 2)
        let missedStart = Locked(false)
        let container = DI(name: "App") { di in
            di.register(Ping.self, scope: .singleton) { r in
                if !start.arrive() { missedStart.withLock { $0 = true } }
                return Ping(pong: try r.resolve())
            }
            di.register(Pong.self, scope: .singleton) { r in
                if !start.arrive() { missedStart.withLock { $0 = true } }
                return Pong(ping: try r.resolve())
            }
        }

        // When one thread resolves Ping and another Pong at the same moment
        let jobs: [@Sendable () -> DIError?] = [
            { failure { () throws(DIError) in try container.resolveThrowing(Ping.self) } },
            { failure { () throws(DIError) in try container.resolveThrowing(Pong.self) } },
        ]
        let errors = await runOnThreads(jobs)

        // Then neither waits forever, and each gets the cycle with its own path
        let outcome = try #require(errors, "the two resolves deadlocked")
        #expect(missedStart.withLock { $0 } == false)
        #expect(outcome.map { $0?.code } == [DIError.Code.dependencyCycle, .dependencyCycle])
        #expect(outcome.map { $0?.path } == [["Ping", "Pong", "Ping"], ["Pong", "Ping", "Pong"]])
        #expect(
            outcome[0]?.description.hasPrefix("Dependency cycle in container \"App\": Ping → Pong → Ping.")
                == true)
    }

    @Test func aCycleOfThreeSingletonsResolvedFromThreeThreadsAtOnceIsReportedOnEach() async throws {
        // Given singletons NodeA → NodeB → NodeC → NodeA whose factories wait for one another
        let start = StartLine(runners: 3)
        let container = DI(name: "App") { di in
            di.register(NodeA.self, scope: .singleton) { r in
                start.arrive()
                return NodeA(next: try r.resolve())
            }
            di.register(NodeB.self, scope: .singleton) { r in
                start.arrive()
                return NodeB(next: try r.resolve())
            }
            di.register(NodeC.self, scope: .singleton) { r in
                start.arrive()
                return NodeC(next: try r.resolve())
            }
        }

        // When three threads each resolve one of them at the same moment
        let jobs: [@Sendable () -> DIError?] = [
            { failure { () throws(DIError) in try container.resolveThrowing(NodeA.self) } },
            { failure { () throws(DIError) in try container.resolveThrowing(NodeB.self) } },
            { failure { () throws(DIError) in try container.resolveThrowing(NodeC.self) } },
        ]
        let errors = await runOnThreads(jobs)

        // Then every thread gets the cycle, each starting from what it asked for
        let outcome = try #require(errors, "the three resolves deadlocked")
        #expect(
            outcome.map { $0?.code } == [DIError.Code.dependencyCycle, .dependencyCycle, .dependencyCycle])
        #expect(
            outcome.map { $0?.path } == [
                ["NodeA", "NodeB", "NodeC", "NodeA"],
                ["NodeB", "NodeC", "NodeA", "NodeB"],
                ["NodeC", "NodeA", "NodeB", "NodeC"],
            ])
    }

    @Test func aGraphWithoutCyclesResolvedFromEightThreadsIsNeverReportedAsACycle() async throws {
        for round in 0..<100 {
            // Given a fresh five-level graph of singletons with a diamond
            let container = DI(name: "Round \(round)") { di in
                di.register(Level1.self, scope: .singleton) { r in
                    Level1(left: try r.resolve(), right: try r.resolve())
                }
                di.register(Level2.self, scope: .singleton) { r in Level2(next: try r.resolve()) }
                di.register(Level3.self, scope: .singleton) { r in Level3(next: try r.resolve()) }
                di.register(Level4.self, scope: .singleton) { r in Level4(next: try r.resolve()) }
                di.register(Level5.self, scope: .singleton) { _ in Level5() }
            }

            // When eight threads start at once, each entering the graph at some level
            let start = StartLine(runners: 8)
            let jobs: [@Sendable () -> Result<ObjectIdentifier, DIError>] = (0..<8).map { thread in
                {
                    start.arrive()
                    return Result { () throws(DIError) -> ObjectIdentifier in
                        let bottom: Level5
                        switch thread % 5 {
                        case 0: bottom = try container.resolveThrowing(Level1.self).left.next.next
                        case 1: bottom = try container.resolveThrowing(Level2.self).next.next
                        case 2: bottom = try container.resolveThrowing(Level3.self).next.next
                        case 3: bottom = try container.resolveThrowing(Level4.self).next
                        default: bottom = try container.resolveThrowing(Level5.self)
                        }
                        return ObjectIdentifier(bottom)
                    }
                }
            }
            let outcome = try #require(await runOnThreads(jobs), "round \(round) deadlocked")

            // Then every thread got the one bottom value, and nobody saw a cycle
            let bottoms = try outcome.map { try $0.get() }
            #expect(Set(bottoms).count == 1, "round \(round)")
        }
    }
}
