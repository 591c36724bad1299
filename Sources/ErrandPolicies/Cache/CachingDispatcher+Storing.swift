import Errand
import Foundation

// What is stored (RFC 9111 §3), under which key, and what an unsafe request removes (§4.4).
extension CachingDispatcher {
    /// The statuses stored without explicit freshness: those RFC 9110 §15.1 calls heuristically
    /// cacheable, except `206 Partial Content` (this cache does not combine ranges).
    static let cacheableByDefault = CacheFreshness.heuristicallyCacheableStatuses.subtracting([206])

    /// The methods that do not change anything on the server (RFC 9110 §9.2.1).
    static let safeMethods: Set<HTTPMethod> = [.get, .head, .options, "TRACE"]

    /// The cache key of `request`: its URL without the method, or `nil` when it has none; its
    /// user info and the values of secret query items are digested (see `CacheSecrets`).
    func cacheKey(for request: RequestData) -> String? {
        // An absolute path ignores the base; a relative one with no base URL known is keyed as
        // the request describes it, under `relative://`.
        // A local function, not a closure in a constant: its context stays on the stack.
        func make() -> String? {
            (try? WireURL.string(
                path: request.path, base: keyBase ?? Self.relativeOrigin, query: request.query))
                .map { secrets.key($0) }
        }
        guard request.query.isEmpty, !request.path.hasQueryOrFragment else { return make() }
        return keys.value(for: request.path, otherwise: make)
    }

    /// What relative paths are keyed under when no base URL is known.
    static let relativeOrigin = URL(string: "relative://").map(WireURL.Base.init)

    /// Whether `response` to `request` may be stored and is worth storing (RFC 9111 §3, §3.5).
    ///
    /// A final status other than `206` and `304`; no `no-store`; no `Vary: *`; either a status
    /// cacheable by default or explicit freshness (`max-age`, `Expires`, `public`, `private`);
    /// and with a request that had `Authorization`, a response that allows it (`public`,
    /// `s-maxage` or `must-revalidate`). A response that would be stale at once and has no
    /// validator to revalidate it with is not worth storing.
    func isStorable(_ response: NetworkResponse, for request: RequestData) -> Bool {
        let status = response.statusCode
        guard (200..<600).contains(status), status != 206, status != 304 else { return false }
        let control = CacheControl(response.headers)
        guard !control.noStore, !CachedResponse.varyNames(in: response.headers).contains("*") else {
            return false
        }
        if request.effectiveHeaders.contains("Authorization") {
            guard control.isPublic || control.sharedMaxAge != nil || control.mustRevalidate else {
                return false
            }
        }
        let explicit =
            control.maxAge != nil || response.headers.contains("Expires") || control.isPublic
            || control.isPrivate
        guard Self.cacheableByDefault.contains(status) || explicit else { return false }
        if response.headers.contains("ETag") || response.headers.contains("Last-Modified") { return true }
        let facts = CacheFreshness.Facts(statusCode: status, headers: response.headers, responseTime: now())
        return facts.lifetime > 0
    }

    /// Whether the store is sure to refuse a response to `miss`: a ``MemoryCacheStore`` stores
    /// nothing whose body and key alone are over its limit, and drops the key's variants with it.
    func refusesEntry(for miss: Miss, with response: NetworkResponse) -> Bool {
        guard let memoryLimit else { return false }
        return response.body.count + miss.key.utf8.count > memoryLimit
    }

    /// Stores `entry` in place of the variant it replaces, keeping the others, unless the cache
    /// or its store was cleared since `miss` started.
    func save(_ entry: CachedResponse, among variants: [CachedResponse], for miss: Miss) {
        clears.withLock { clears in
            guard clears == miss.clears else { return }
            let responses = [entry] + variants.filter { !entry.replaces($0) }
            if let countingStore, let count = miss.storeClears {
                countingStore.store(responses, for: entry.key, ifClearCountIs: count)
            } else {
                store.store(responses, for: entry.key)
            }
        }
    }

    /// Removes what an unsafe `request` answered without error by `response` makes stale.
    func invalidate(after response: NetworkResponse, to request: RequestData) {
        guard !Self.safeMethods.contains(request.method), (200..<400).contains(response.statusCode),
            let key = cacheKey(for: request)
        else { return }
        store.removeResponses(for: key)
        for name in ["Location", "Content-Location"] {
            guard let value = response.headers[name], let target = sameOriginKey(value, relativeTo: key)
            else { continue }
            store.removeResponses(for: target)
        }
    }

    /// The cache key of `reference` resolved against `key`, when it has the same origin.
    private func sameOriginKey(_ reference: String, relativeTo key: String) -> String? {
        guard let base = URL(string: key), let target = URL(string: reference, relativeTo: base)?.absoluteURL,
            target.scheme?.lowercased() == base.scheme?.lowercased(),
            target.host?.lowercased() == base.host?.lowercased(), target.port == base.port
        else { return nil }
        // A relative reference inherits the key's user info, which is a digest already.
        let inherited = base.user != nil && target.user == base.user && target.password == base.password
        return (try? WireURL.string(path: target.absoluteString, baseURL: nil, query: [])).map {
            secrets.key($0, hasKeyedUserInfo: inherited)
        }
    }
}
