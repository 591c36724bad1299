import Errand
import ErrandPolicies
import ErrandState
import ErrandSync
import ErrandTestSupport
import Foundation

/// One random scenario: users sign in, switch and sign out while reads, refreshes, sign-in
/// screens and list screens are in flight, and the server answers in any order. After every
/// step, and at the end, it checks that nothing of one user reached another.
@MainActor final class SessionScenario {
    /// Who a read was made for, and so what it may be answered with.
    enum Issuer: CustomStringConvertible {
        case user(String)
        case key(String)
        case anonymous

        /// Whether `body` may answer a read made for this issuer.
        func allows(_ body: [String]) -> Bool {
            switch self {
            case .user(let user): body == [user] || body == ["anonymous"]
            case .key(let key): body == ["key:\(key)"]
            case .anonymous: body == ["anonymous"]
            }
        }

        var description: String {
            switch self {
            case .user(let user): "signed in as \(user)"
            case .key(let key): "with the API key \(key)"
            case .anonymous: "signed out"
            }
        }
    }

    private struct Read {
        let label: String
        let issuer: Issuer
        let outcome: Locked<Result<[String], NetworkError>?>
    }

    private struct SignInScreen {
        let id: String
        let user: String
        var model: LoginViewModel<String, SessionApp.Tokens>?
        let task: Task<Void, Never>?
    }

    private struct ListScreen {
        let id: String
        /// Who the screen's request was sent for; `nil` when it was not seen leaving in time.
        let issuer: Issuer?
        var model: ListViewModel<String>?
        let task: Task<Void, Never>?
    }

    static let users = ["ada", "bob", "cy"]
    private static let cacheControls: [String?] = [
        nil, "max-age=60", "public, max-age=60", "private, max-age=60",
        "private, must-revalidate, max-age=60", "s-maxage=60", "no-store", "no-cache",
        "max-age=0, must-revalidate",
    ]

    private var random: SplitMix64
    private let app: SessionApp
    private var current: (user: String, chain: Int)?
    /// Chains whose refresh the server refused while they were signed in: their end is no leak.
    private var refusedWhileCurrent: Set<Int> = []
    private var signIns = 0
    private var reads: [Read] = []
    private var signInScreens: [SignInScreen] = []
    private var listScreens: [ListScreen] = []
    private var trace: [String] = []
    private var violations: [String] = []

    init(seed: UInt64, directory: URL) throws {
        random = SplitMix64(seed: seed)
        app = try SessionApp(using: &random, directory: directory)
        trace.append("stacks: " + app.stacks.map(\.layout).joined(separator: " | "))
    }

    /// Runs the scenario; returns what broke, with the steps that led there, or `nil`.
    func run(steps: Int) async -> String? {
        defer { app.close() }
        for _ in 0..<steps {
            await step()
            await check()
            if !violations.isEmpty { return failure }
        }
        await drain()
        await check()
        await finalCheck()
        return violations.isEmpty ? nil : failure
    }

    /// Awaits `work`, but reports it instead of hanging when it does not end while the main actor
    /// takes many turns: nothing the scenario awaits waits for the scenario's next step.
    private func bounded(_ what: String, _ work: @escaping @MainActor () async -> Void) async {
        let done = Locked(false)
        let task = Task { @MainActor in
            await work()
            done.withLock { $0 = true }
        }
        for _ in 0..<200_000 {
            if done.withLock({ $0 }) { return await task.value }
            await Task.yield()
        }
        violations.append("\(what) never ended")
    }

    private var failure: String {
        let waiting = app.server.held.map { held in
            "  \(held.request.method.rawValue) \(held.request.path) \(held.request.query) "
                + held.request.headers.map { "\($0.name): \($0.value)" }.joined(separator: ", ")
        }
        return
            (violations + ["steps:"] + trace.suffix(40).map { "  " + $0 } + ["waiting at the server:"]
            + waiting)
            .joined(separator: "\n")
    }

    // MARK: - Steps

    private func step() async {
        let choice = random.weighted([
            (10, 0), (5, 1), (22, 2), (30, 3), (5, 4), (8, 5), (5, 6), (4, 7), (6, 8), (5, 9),
        ])
        switch choice {
        case 0: await signIn(Self.users.randomElement(using: &random) ?? "ada")
        case 1: await signOut()
        case 2: read()
        case 3: await answer()
        case 4: expire()
        case 5: advance()
        case 6: openSignInScreen()
        case 7: closeSignInScreen()
        case 8: await openListScreen()
        default: closeListScreen()
        }
        // A turn for the work the step set off; more would only slow the run.
        await Task.yield()
    }

    private func signIn(_ user: String) async {
        let (chain, tokens) = app.server.startChain(for: user)
        let switching = current != nil && random.chance(50)
        trace.append("\(switching ? "switch account to" : "sign in as") \(user) (chain \(chain))")
        await bounded("signing in as \(user)") { [self] in
            do {
                if switching {
                    try await app.auth.switchAccount(tokens: tokens, user: user)
                } else {
                    try await app.auth.logIn(tokens: tokens, user: user)
                }
                current = (user, chain)
                signIns += 1
            } catch {
                violations.append("signing in as \(user) failed: \(error)")
            }
        }
    }

    private func signOut() async {
        trace.append("sign out")
        await bounded("signing out") { [self] in
            do {
                try await app.auth.logout()
            } catch {
                violations.append("signing out failed: \(error)")
            }
            current = nil
        }
    }

    /// A read of a path every user reads, signed in, with a tenant's API key, or anonymous.
    private func read() {
        let path = random.chance(50) ? "/me" : "/feed"
        let (stackIndex, stack) = pickStack()
        var request = RequestData.get(path)
        let issuer: Issuer
        switch random.weighted([(6, 0), (2, 1), (2, 2)]) {
        case 0:
            issuer = current.map { .user($0.user) } ?? .anonymous
        case 1:
            let key = Self.users.randomElement(using: &random) ?? "ada"
            request = request.header("X-API-Key", key).authentication(.none)
            issuer = .key(key)
        default:
            request = request.authentication(.none)
            issuer = .anonymous
        }
        let label = "read \(reads.count): GET \(path) on stack \(stackIndex) \(issuer)"
        trace.append(label)
        let outcome = Locked<Result<[String], NetworkError>?>(nil)
        reads.append(Read(label: label, issuer: issuer, outcome: outcome))
        Request<[String]>(request)
            .execute(
                dispatcher: stack, callbackQueue: nil,
                onSuccess: { body in outcome.withLock { $0 = $0 ?? .success(body) } },
                onError: { error in outcome.withLock { $0 = $0 ?? .failure(error) } })
    }

    /// Answers one waiting request, in any order: a refresh granted, refused or failed for a
    /// while, a sign-in, a read with a random `Cache-Control` (now and then a 503).
    private func answer() async {
        let held = app.server.held
        guard let chosen = held.randomElement(using: &random) else { return }
        let grant = random.weighted([(7, SessionServer.Grant.grant), (2, .refuse), (1, .unavailable)])
        let cacheControl = Self.cacheControls.randomElement(using: &random) ?? nil
        let status = random.chance(10) ? 503 : 200
        let refreshing = chosen.request.headers["X-Refresh"].flatMap(SessionServer.chain(of:))
        trace.append(
            "answer \(chosen.request.method.rawValue) \(chosen.request.path) "
                + (chosen.isRefresh ? "(\(grant), refresh of chain \(refreshing?.chain ?? 0))" : "")
                + (chosen.isLogin ? "(sign-in screen \(chosen.request.headers["X-Login"] ?? "?"))" : "")
                + (chosen.isRefresh || chosen.isLogin
                    ? "" : "(\(status), \(cacheControl ?? "no Cache-Control"))")
                + (chosen.request.headers["Authorization"].map { " with \($0)" } ?? ""))
        if chosen.isRefresh, grant == .refuse, let refreshing, refreshing.chain == current?.chain {
            refusedWhileCurrent.insert(refreshing.chain)
        }
        guard
            let answered = app.server.answer(
                chosen.id, grant: grant, cacheControl: cacheControl, status: status)
        else { return }
        await settle(answered)
    }

    /// After a sign-in screen's request is answered: waits for its sign-in, and takes its user as
    /// the signed-in one; a released screen's chain must never be seen.
    private func settle(_ answered: (SessionServer.Held, Int?)) async {
        guard answered.0.isLogin, let started = answered.1, let id = answered.0.screen,
            let screen = signInScreens.first(where: { $0.id == id })
        else { return }
        guard screen.model != nil else {
            app.server.forbid(started)
            return
        }
        await bounded("sign-in screen \(id)'s sign-in") { await screen.task?.value }
        if app.auth.isLoggedIn {
            current = (screen.user, started)
            signIns += 1
        }
    }

    private func expire() {
        guard let current else { return }
        trace.append("the access token of chain \(current.chain) expires")
        app.server.expire(current.chain)
    }

    private func advance() {
        let seconds = random.weighted([(3, 1), (3, 10), (3, 61), (1, 120)])
        trace.append("\(seconds) s pass")
        app.advance(by: .seconds(seconds))
    }

    private func openSignInScreen() {
        let user = Self.users.randomElement(using: &random) ?? "ada"
        let id = "login-\(signInScreens.count)"
        trace.append("open sign-in screen \(id) for \(user)")
        let model = LoginViewModel<String, SessionApp.Tokens>(
            auth: app.auth, dispatcher: app.server,
            request: { user in
                Request<SessionApp.Tokens>(
                    .post("/login").header("X-User", user).header("X-Login", id).authentication(.none))
            }, tokens: { $0.pair })
        let task = model.submit(user)
        signInScreens.append(SignInScreen(id: id, user: user, model: model, task: task))
    }

    private func closeSignInScreen() {
        guard
            let index = signInScreens.indices.filter({ signInScreens[$0].model != nil })
                .randomElement(using: &random)
        else { return }
        let id = signInScreens[index].id
        trace.append("close sign-in screen \(id)")
        signInScreens[index].model = nil
        release(screen: id)
    }

    private func openListScreen() async {
        let id = "list-\(listScreens.count)"
        let (stackIndex, stack) = pickStack()
        let issuer: Issuer = current.map { .user($0.user) } ?? .anonymous
        trace.append("open list screen \(id) on stack \(stackIndex), \(issuer)")
        let model = ListViewModel<String>(dispatcher: stack, pagination: .pages(size: 10)) { _ in
            Request<[String]>(.get("/feed").query("screen", id).header("X-Screen", id))
        }
        let task = model.load()
        // Who the screen reads for is known once its request has left; most leave at once.
        let server = app.server
        var left = false
        for _ in 0..<20 {
            if server.held.contains(where: { $0.screen == id }) || !model.isLoading {
                left = true
                break
            }
            await Task.yield()
        }
        listScreens.append(ListScreen(id: id, issuer: left ? issuer : nil, model: model, task: task))
    }

    private func closeListScreen() {
        guard
            let index = listScreens.indices.filter({ listScreens[$0].model != nil })
                .randomElement(using: &random)
        else { return }
        let id = listScreens[index].id
        trace.append("close list screen \(id)")
        listScreens[index].model = nil
        release(screen: id)
    }

    /// Tells the server `id` is gone; the next check waits for its cancellation to arrive there.
    private func release(screen id: String) {
        app.server.release(screen: id)
    }

    private func pickStack() -> (Int, any NetworkDispatcher) {
        let index = Int.random(in: 0..<app.stacks.count, using: &random)
        return (index, app.stacks[index].dispatcher)
    }

    // MARK: - Checks

    /// What must hold after every step.
    private func check() async {
        violations += app.server.violations
        if !app.auth.isLoggedIn, let signedIn = current {
            // The library ended the session: only a refused refresh of that session may do that.
            if refusedWhileCurrent.contains(signedIn.chain) {
                trace.append("the session of chain \(signedIn.chain) expired")
                current = nil
            } else {
                violations.append("\(signedIn.user) (chain \(signedIn.chain)) was signed out by the library")
            }
        }
        let stored: TokenPair?
        do {
            stored = try await app.auth.storage.read()
        } catch {
            violations.append("the token storage failed: \(error)")
            return
        }
        let storedChain = stored.flatMap { SessionServer.chain(of: $0.accessToken) }
        switch (current, storedChain) {
        case (nil, let held?):
            violations.append("signed out, but the storage holds \(held.user)'s tokens (chain \(held.chain))")
        case (let signedIn?, let held?) where held.chain != signedIn.chain:
            violations.append(
                "\(signedIn.user) (chain \(signedIn.chain)) is signed in, but the storage holds "
                    + "\(held.user)'s tokens (chain \(held.chain))")
        case (let signedIn?, nil) where !refusedWhileCurrent.contains(signedIn.chain):
            violations.append("\(signedIn.user) is signed in, but the storage is empty")
        default: break
        }
        for read in reads {
            guard case .success(let body)? = read.outcome.withLock({ $0 }), !read.issuer.allows(body) else {
                continue
            }
            violations.append("\(read.label) was answered with \(body)")
        }
        // A cancel that lands while a request's task runs on the pool, between its check for
        // cancellation and its dispatch, is carried out by that task once the request is out:
        // the bound leaves it time, and a request still there after it is a cancel lost. The
        // bound is in turns and, for a pool slowed down (the thread sanitizer), in wall time too.
        let server = app.server
        let deadline = ContinuousClock.now + .seconds(10)
        var rounds = 0
        while rounds < 200_000 || ContinuousClock.now < deadline, !server.heldForReleasedScreens.isEmpty {
            rounds += 1
            await Task.yield()
        }
        for id in Set(server.heldForReleasedScreens).sorted() {
            violations.append("the request of the released screen \(id) is still at the server")
        }
    }

    /// Answers everything still waiting, lets every timer fire, and waits for every read.
    private func drain() async {
        trace.append("drain")
        for _ in 0..<50 {
            while let next = app.server.held.first {
                if let answered = app.server.answer(next.id, grant: .grant, cacheControl: nil) {
                    await settle(answered)
                }
                await Task.yield()
            }
            app.advance(by: .seconds(120))
            for _ in 0..<50 { await Task.yield() }
            // A list screen may be waiting out a retry's back-off on the clock, and a sign-in
            // screen's request may not have reached the server yet, with nothing held.
            if isSettled { break }
        }
        // On a loaded machine the pool's threads may not have run yet: answer what arrives and
        // give them turns (no more clock), bounded like every other wait here.
        var turns = 0
        while turns < 200_000, !isSettled {
            turns += 1
            if let next = app.server.held.first,
                let answered = app.server.answer(next.id, grant: .grant, cacheControl: nil)
            {
                await settle(answered)
            }
            await Task.yield()
        }
        for screen in signInScreens {
            await bounded("sign-in screen \(screen.id)") { await screen.task?.value }
        }
        for screen in listScreens where screen.model != nil {
            await bounded("list screen \(screen.id)") { await screen.task?.value }
        }
    }

    /// Whether every read has its outcome, no screen is still working and nothing is held.
    private var isSettled: Bool {
        reads.allSatisfy { $0.outcome.withLock { $0 != nil } }
            && listScreens.allSatisfy { $0.model?.isLoading != true }
            && signInScreens.allSatisfy { $0.model?.isSubmitting != true }
            && app.server.held.isEmpty
    }

    /// What must hold once everything has settled.
    private func finalCheck() async {
        for read in reads where read.outcome.withLock({ $0 == nil }) {
            violations.append("\(read.label) was never answered")
        }
        for screen in listScreens {
            guard let model = screen.model, let issuer = screen.issuer, let items = model.state.value else {
                continue
            }
            if !issuer.allows(items) {
                violations.append("list screen \(screen.id), \(issuer), showed \(items)")
            }
        }
        // Every event arrives: the sign-ins, sign-outs and expiries this scenario caused.
        let events = app.events
        for _ in 0..<10_000 {
            await Task.yield()
            if events.withLock({ $0.filter { $0 == .loggedIn }.count }) >= signIns { break }
        }
        let heard = events.withLock { $0 }
        let signedIn = heard.filter { $0 == .loggedIn }.count
        if signedIn != signIns {
            violations.append("\(signedIn) sign-ins were announced for \(signIns) made: \(heard)")
        }
        let expiries = heard.filter { $0 == .sessionExpired }.count
        if expiries > refusedWhileCurrent.count {
            violations.append(
                "\(expiries) expiries were announced for \(refusedWhileCurrent.count) refused refreshes: \(heard)"
            )
        }
        for (previous, event) in zip(heard, heard.dropFirst())
        where previous == .loggedOut && event == .sessionExpired {
            violations.append("an expiry was announced after a sign-out: \(heard)")
        }
    }
}
