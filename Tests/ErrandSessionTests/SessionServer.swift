import Errand
import ErrandPolicies
import ErrandSync
import Foundation

/// A token server and API in one, that holds every request until the scenario answers it.
///
/// Each sign-in starts a chain of tokens for one user: `at.<user>.<chain>.<turn>` and
/// `rt.<user>.<chain>.<turn>`. A refresh rotates the chain: the refresh token it used is then
/// refused, so two refreshes with one token show as a stale refresh. Reads answer
/// `["<user>"]` for a valid access token, `["key:<user>"]` for an API key and `["anonymous"]`
/// for neither, with the same `ETag` for everyone, so that a cache revalidating one user's entry
/// with another user's credentials is caught too.
final class SessionServer: NetworkDispatcher {
    /// One user's tokens since one sign-in.
    struct Chain {
        let user: String
        var turn = 0
        var accessValid = true
        var revoked = false

        func access(_ number: Int) -> String { "at.\(user).\(number).\(turn)" }
        func refresh(_ number: Int) -> String { "rt.\(user).\(number).\(turn)" }
    }

    /// A request waiting for its answer.
    struct Held {
        let id: Int
        let request: RequestData
        let onSuccess: @Sendable (NetworkResponse) -> Void
        let onError: @Sendable (NetworkError) -> Void

        var isRefresh: Bool { request.path == "/token" }
        var isLogin: Bool { request.path == "/login" }
        /// The sign-in or list screen that sent it, if one did.
        var screen: String? { request.headers["X-Screen"] ?? request.headers["X-Login"] }
    }

    /// How the scenario answers a refresh.
    enum Grant { case grant, refuse, unavailable }

    private struct State {
        var chains: [Int: Chain] = [:]
        var held: [Held] = []
        var nextID = 0
        /// Chains whose tokens must never be seen again (a released sign-in screen's).
        var forbidden: Set<Int> = []
        /// Screens released: their requests must not be waiting here.
        var releasedScreens: Set<String> = []
        var violations: [String] = []
    }

    private let state = Locked(State())

    /// What the server saw that breaks an invariant by itself.
    var violations: [String] { state.withLock { $0.violations } }
    /// The requests waiting, oldest first.
    var held: [Held] { state.withLock { $0.held } }

    /// Starts a chain for `user` and returns its number and tokens.
    func startChain(for user: String) -> (chain: Int, tokens: TokenPair) {
        state.withLock { state in
            let number = Self.start(user, in: &state)
            return (
                number,
                TokenPair(accessToken: "at.\(user).\(number).0", refreshToken: "rt.\(user).\(number).0")
            )
        }
    }

    private static func start(_ user: String, in state: inout State) -> Int {
        let number = state.chains.count + 1
        state.chains[number] = Chain(user: user)
        return number
    }

    /// Makes the current access token of `chain` expired: the next read with it gets a 401.
    func expire(_ chain: Int) {
        state.withLock { $0.chains[chain]?.accessValid = false }
    }

    /// Marks `chain`'s tokens as never to be seen again.
    func forbid(_ chain: Int) {
        state.withLock { _ = $0.forbidden.insert(chain) }
    }

    /// Notes that `screen` was released: its requests must be cancelled.
    func release(screen: String) {
        state.withLock { _ = $0.releasedScreens.insert(screen) }
    }

    /// The chain and user a token names, if it names one.
    static func chain(of token: String) -> (user: String, chain: Int)? {
        let parts = token.split(separator: ".")
        guard parts.count == 4, let number = Int(parts[2]) else { return nil }
        return (String(parts[1]), number)
    }

    func dispatch(
        request: RequestData, onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            let token = request.headers["Authorization"]?.replacingOccurrences(of: "Bearer ", with: "")
            if let token, let chain = Self.chain(of: token)?.chain, state.forbidden.contains(chain) {
                state.violations.append("a released sign-in's token was sent: \(token)")
            }
            let held = Held(id: state.nextID, request: request, onSuccess: onSuccess, onError: onError)
            state.held.append(held)
            return state.nextID
        }
        return CancellableAction { [self] in
            let held = state.withLock { state in
                state.held.firstIndex { $0.id == id }.map { state.held.remove(at: $0) }
            }
            held?.onError(NetworkError(code: .cancelled, message: "cancelled", request: request))
        }
    }

    /// Answers the held request `id`: a refresh as `grant` says, a sign-in with a new chain for
    /// the user it names, a read with `cacheControl`. Returns the request answered and, for a
    /// sign-in, the chain it started.
    @discardableResult
    func answer(_ id: Int, grant: Grant, cacheControl: String?, status: Int = 200) -> (Held, Int?)? {
        var started: Int?
        let reply: (Held, NetworkResponse)? = state.withLock { state in
            guard let index = state.held.firstIndex(where: { $0.id == id }) else { return nil }
            let held = state.held.remove(at: index)
            let response: NetworkResponse
            if held.isRefresh {
                response = Self.refresh(held.request, grant: grant, in: &state)
            } else if held.isLogin {
                let user = held.request.headers["X-User"] ?? "nobody"
                let number = Self.start(user, in: &state)
                started = number
                response = Self.json(
                    ["access": "at.\(user).\(number).0", "refresh": "rt.\(user).\(number).0"],
                    for: held.request)
            } else {
                response = Self.read(held.request, cacheControl: cacheControl, status: status, in: state)
            }
            return (held, response)
        }
        guard let (held, response) = reply else { return nil }
        held.onSuccess(response)
        return (held, started)
    }

    private static func refresh(_ request: RequestData, grant: Grant, in state: inout State)
        -> NetworkResponse
    {
        let token = request.headers["X-Refresh"] ?? ""
        if grant == .unavailable { return NetworkResponse(statusCode: 503, request: request) }
        guard let (_, number) = chain(of: token), var chain = state.chains[number], !chain.revoked else {
            return NetworkResponse(statusCode: 400, body: Data("invalid_grant".utf8), request: request)
        }
        if state.forbidden.contains(number) {
            state.violations.append("a released sign-in's refresh token was sent: \(token)")
        }
        guard token == chain.refresh(number) else {
            state.violations.append("refresh token \(token) was used twice (the chain is at \(chain.turn))")
            return NetworkResponse(
                statusCode: 400, body: Data("invalid_grant: reused".utf8), request: request)
        }
        guard grant == .grant else {
            chain.revoked = true
            state.chains[number] = chain
            return NetworkResponse(statusCode: 400, body: Data("invalid_grant".utf8), request: request)
        }
        chain.turn += 1
        chain.accessValid = true
        state.chains[number] = chain
        return json(["access": chain.access(number), "refresh": chain.refresh(number)], for: request)
    }

    private static func read(_ request: RequestData, cacheControl: String?, status: Int, in state: State)
        -> NetworkResponse
    {
        var headers: HTTPHeaders = ["ETag": "\"v1\""]
        if let cacheControl { headers.set("Cache-Control", cacheControl) }
        let body: String
        if let bearer = request.headers["Authorization"] {
            let token = bearer.replacingOccurrences(of: "Bearer ", with: "")
            guard let (user, number) = chain(of: token), let chain = state.chains[number],
                chain.accessValid, !chain.revoked, token == chain.access(number)
            else { return NetworkResponse(statusCode: 401, request: request) }
            body = user
        } else if let key = request.headers["X-API-Key"] {
            body = "key:\(key)"
        } else {
            body = "anonymous"
        }
        guard status == 200 else { return NetworkResponse(statusCode: status, request: request) }
        if request.headers["If-None-Match"] == "\"v1\"" {
            return NetworkResponse(statusCode: 304, headers: headers, request: request)
        }
        headers.set("Content-Type", "application/json")
        return NetworkResponse(
            statusCode: 200, headers: headers, body: Data("[\"\(body)\"]".utf8), request: request)
    }

    private static func json(_ fields: [String: String], for request: RequestData) -> NetworkResponse {
        let body = (try? JSONEncoder().encode(fields)) ?? Data()
        return NetworkResponse(
            statusCode: 200, headers: ["Content-Type": "application/json"], body: body, request: request)
    }

    /// The released screens whose requests are still held here.
    var heldForReleasedScreens: [String] {
        state.withLock { state in
            state.held.compactMap { held in
                held.screen.flatMap { state.releasedScreens.contains($0) ? $0 : nil }
            }
        }
    }
}
