import Dispatch
import ErrandDI
import ErrandSync
import Foundation
import Testing

@Suite struct ScopeTests {
    @Test func uniqueIsTheDefaultAndMakesANewValueEachTime() throws {
        let runs = Counter()
        let container = DI { di in
            di.register(Session.self) { _ in Session(number: runs.increment()) }
        }

        let first = try container.resolveThrowing(Session.self)
        let second = try container.resolveThrowing(Session.self)

        #expect(first !== second)
        #expect(runs.value == 2)
    }

    @Test func singletonIsCreatedLazilyOncePerContainer() throws {
        // Given a singleton binding
        let runs = Counter()
        let container = DI { di in
            di.register(Session.self, scope: .singleton) { _ in Session(number: runs.increment()) }
        }
        #expect(runs.value == 0)

        // When it is resolved twice
        let first = try container.resolveThrowing(Session.self)
        let second = try container.resolveThrowing(Session.self)

        // Then the factory ran once, on first use
        #expect(first === second)
        #expect(runs.value == 1)
    }

    @Test func aThousandConcurrentFirstResolvesRunTheSingletonFactoryOnce() async throws {
        // Given a singleton whose factory waits until another resolve has started, so that
        // resolves really overlap the factory run
        let runs = Counter()
        let started = Counter()
        let container = DI { di in
            di.register(Session.self, scope: .singleton) { _ in
                let number = runs.increment()
                let deadline = ContinuousClock.now + .seconds(2)
                while started.value < 2, ContinuousClock.now < deadline {
                    Thread.sleep(forTimeInterval: 0.001)
                }
                Thread.sleep(forTimeInterval: 0.02)
                return Session(number: number)
            }
        }

        // When 1,000 tasks resolve it at once
        let identities = await withTaskGroup(of: ObjectIdentifier?.self) { group in
            for _ in 0..<1_000 {
                group.addTask {
                    started.increment()
                    return (try? container.resolveThrowing(Session.self)).map(ObjectIdentifier.init)
                }
            }
            var identities: Set<ObjectIdentifier?> = []
            for await identity in group {
                identities.insert(identity)
            }
            return identities
        }

        // Then the factory ran once and everyone got its value
        #expect(runs.value == 1)
        #expect(identities.count == 1)
        #expect(identities.first != nil)
        #expect(started.value == 1_000)
    }

    @Test func noLockSharedWithOtherBindingsIsHeldWhileAFactoryRuns() throws {
        // Given a singleton whose factory waits until another binding was resolved elsewhere
        let factoryStarted = DispatchSemaphore(value: 0)
        let otherResolved = DispatchSemaphore(value: 0)
        let container = DI { di in
            di.register(Session.self, scope: .singleton) { _ in
                factoryStarted.signal()
                let sawOther = otherResolved.wait(timeout: .now() + 10) == .success
                return Session(number: sawOther ? 1 : 0)
            }
            di.register(TokenStore.self, scope: .singleton) { _ in TokenStore(token: "other") }
            di.register(Config.self) { _ in Config(retries: 1) }
        }

        // When the slow factory runs on a thread of its own (not the cooperative pool, which the
        // semaphores could starve) and the test resolves other bindings meanwhile
        let slowResult = Locked<Int?>(nil)
        let slowDone = DispatchSemaphore(value: 0)
        Thread {
            slowResult.withLock { $0 = try? container.resolveThrowing(Session.self).number }
            slowDone.signal()
        }.start()
        #expect(factoryStarted.wait(timeout: .now() + 10) == .success)
        let other = try container.resolveThrowing(TokenStore.self)
        let unique = try container.resolveThrowing(Config.self)
        otherResolved.signal()

        // Then the other resolves did not wait for the running factory
        #expect(other.token == "other")
        #expect(unique.retries == 1)
        #expect(slowDone.wait(timeout: .now() + 10) == .success)
        #expect(slowResult.withLock { $0 } == 1)
    }

    @Test func aFailedSingletonFactoryIsRetriedOnTheNextResolve() throws {
        let runs = Counter()
        let container = DI { di in
            di.register(Session.self, scope: .singleton) { _ in
                let run = runs.increment()
                if run == 1 { throw DiskFull() }
                return Session(number: run)
            }
        }

        #expect(throws: DIError.self) { try container.resolveThrowing(Session.self) }
        let session = try container.resolveThrowing(Session.self)

        #expect(session.number == 2)
    }

    @Test func weakSharesTheValueWhileSomeoneHoldsIt() throws {
        // Given a weak binding
        let runs = Counter()
        let container = DI { di in
            di.register(Session.self, scope: .weak) { _ in Session(number: runs.increment()) }
        }

        // When it is resolved twice while the first value is held
        do {
            let held = try container.resolveThrowing(Session.self)
            let again = try container.resolveThrowing(Session.self)

            // Then both are one value
            #expect(held === again)
            #expect(runs.value == 1)
        }

        // When every holder has let go, the next resolve makes a new one
        let afterRelease = try container.resolveThrowing(Session.self)
        #expect(afterRelease.number == 2)
    }

    @Test func sessionScopeIsSharedUntilReset() throws {
        // Given a session-scoped binding and a singleton
        let runs = Counter()
        let container = DI { di in
            di.register(Session.self, scope: .session) { _ in Session(number: runs.increment()) }
            di.register(TokenStore.self, scope: .singleton) { _ in TokenStore(token: "app") }
        }
        let beforeLogout = try container.resolveThrowing(Session.self)
        let appWide = try container.resolveThrowing(TokenStore.self)
        #expect(try container.resolveThrowing(Session.self) === beforeLogout)

        // When the session scope is reset (logout)
        container.reset(.session)

        // Then the session value is new and the singleton is untouched
        let afterLogout = try container.resolveThrowing(Session.self)
        #expect(afterLogout !== beforeLogout)
        #expect(afterLogout.number == 2)
        #expect(try container.resolveThrowing(TokenStore.self) === appWide)
    }

    @Test func aResetDuringCreationDoesNotWaitAndForgetsTheValueBeingCreated() throws {
        // Given a session-scoped binding whose first factory run waits until a reset has returned
        let runs = Counter()
        let factoryStarted = DispatchSemaphore(value: 0)
        let resetReturned = DispatchSemaphore(value: 0)
        let container = DI { di in
            di.register(Session.self, scope: .session) { _ in
                let number = runs.increment()
                if number == 1 {
                    factoryStarted.signal()
                    _ = resetReturned.wait(timeout: .now() + 10)
                }
                return Session(number: number)
            }
        }
        let first = Locked<Int?>(nil)
        let firstDone = DispatchSemaphore(value: 0)
        Thread {
            first.withLock { $0 = try? container.resolveThrowing(Session.self).number }
            firstDone.signal()
        }.start()
        #expect(factoryStarted.wait(timeout: .now() + 10) == .success)

        // When the scope is reset while that value is being created
        container.reset(.session)
        resetReturned.signal()

        // Then its caller gets it, but the scope does not keep it
        #expect(firstDone.wait(timeout: .now() + 10) == .success)
        #expect(first.withLock { $0 } == 1)
        #expect(try container.resolveThrowing(Session.self).number == 2)
        #expect(try container.resolveThrowing(Session.self).number == 2)
    }

    @Test func resettingOneNamedScopeLeavesOthersAlone() throws {
        let container = DI { di in
            di.register(Session.self, scope: .session) { _ in Session(number: 1) }
            di.register(Session.self, name: .primary, scope: .named(.checkout)) { _ in Session(number: 2) }
        }
        let session = try container.resolveThrowing(Session.self)
        let cart = try container.resolveThrowing(Session.self, name: .primary)

        container.reset(.checkout)

        #expect(try container.resolveThrowing(Session.self) === session)
        #expect(try container.resolveThrowing(Session.self, name: .primary) !== cart)
    }

    @Test func scopesDescribeThemselvesAsWrittenInCode() {
        #expect(DI.Scope.unique.description == ".unique")
        #expect(DI.Scope.singleton.description == ".singleton")
        #expect(DI.Scope.weak.description == ".weak")
        #expect(DI.Scope.viewModel.description == ".viewModel")
        #expect(DI.Scope.session.description == ".session")
        #expect(DI.Scope.named(.checkout).description == ".named(\"checkout\")")
    }
}
