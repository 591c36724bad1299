import Errand
import ErrandSync
import Foundation

/// A dispatcher that keeps responses in a ``CacheStore`` and answers from it as a private HTTP
/// cache (RFC 9111) would. Made with ``Errand/NetworkDispatcher/caching(_:baseURL:now:)``.
///
/// - Only `GET` and `HEAD` are answered from the store (a `HEAD` may be answered by a stored
///   `GET`). A fresh stored response answers at once, without a request reaching the wrapped
///   dispatcher; its `NetworkResponse.cacheStatus` is `.hit`.
/// - A stale one with an `ETag` or `Last-Modified` is revalidated with `If-None-Match` /
///   `If-Modified-Since`; a `304` updates the stored headers and delivers the stored body with
///   its stored status (`.revalidated`).
/// - `no-cache` (on the request or the response) and a request's `max-age=0` always revalidate;
///   `no-store` (on either) stores nothing; `Vary` keeps one response per combination of the
///   nominated request header values, and `Vary: *` is never stored.
/// - A non-error answer to `POST`, `PUT`, `PATCH`, `DELETE` or any other unsafe method removes
///   what is stored for its URL, and for a same-origin `Location` or `Content-Location`.
/// - Requests that carry their own conditional headers (`If-None-Match`, …) or a `Range` pass
///   straight through: the caller is managing validation itself.
///
/// The cache key is the request's URL without the method: the path resolved against the base
/// URL given when the cache was made, else the wrapped dispatcher's when it is a
/// `URLSessionDispatcher`; else a relative path is keyed as written, with its query.
///
/// No credential reaches the store: secret query values (names of `SecretVocabulary.default`,
/// such as `access_token`) and a URL's user info stand in the key as their digest, so do the
/// stored `Vary` values of secret headers (`Authorization`, `Cookie`, `X-Api-Key`, …); the
/// stored URL has them redacted; and response fields that hand out a credential (`Set-Cookie`,
/// `X-Auth-Token`, every name of the vocabulary) are never stored, so an answer from the store
/// comes without them. For a ``DiskCacheStore`` the digests are keyed with the store's own
/// random key (HMAC-SHA256), so entry files read without that key cannot be used to test
/// guesses of a credential; in memory they are SHA-256. Bodies are stored as they came; token answers are `POST`
/// responses with `no-store`, which are never stored.
///
/// Every entry is bound to the `RequestIdentity` of the request that fetched it and answers
/// only requests of the same identity, whatever its `Cache-Control` says: `public` and
/// `s-maxage` allow reuse for the same credentials, never for other ones or none. With an
/// ``AuthenticatingDispatcher`` further in, the identity includes the session it signs the
/// request in, so an answer fetched by one user, or while signed out, never answers after a
/// sign-in, a sign-out or an account switch; entries fetched that way are not reused by a later
/// launch either. ``clear()`` voids every miss in flight: nothing fetched before it is stored
/// after it; so does emptying a ``MemoryCacheStore`` or a ``DiskCacheStore`` directly. Interceptors further in that add credentials of their own are not seen: put them
/// outside the cache. On Linux this is the only HTTP cache (FoundationNetworking never
/// answers from `URLCache`); on Apple platforms it is independent of `URLCache`, which
/// `URLSessionDispatcher.defaultConfiguration()` turns off, so nothing is cached twice.
///
/// The cache waits for nothing of its own, so it is written as two steps: a plan made before
/// anything is sent (answer from the store, or send this request) and a conclusion for the
/// answer. Outermost, `dispatch` runs them around the wrapped dispatcher's callbacks, with no
/// task; inside another policy, `send` runs them inline in that policy's task.
public struct CachingDispatcher: WrappingDispatcher, AsyncPolicy {
    /// The dispatcher that sends what the store cannot answer.
    public let base: any NetworkDispatcher
    /// Where the responses are kept.
    public let store: any CacheStore
    /// The URL relative paths resolve against for the cache key, when known.
    public let baseURL: URL?
    let now: @Sendable () -> Date
    /// ``baseURL`` read once for the cache keys.
    let keyBase: WireURL.Base?
    /// The cache keys of query-less paths, each made once.
    let keys = PathMemo<String>()
    /// The byte limit of a ``MemoryCacheStore``, to skip building an entry it would refuse.
    let memoryLimit: Int?
    /// Stamps requests with the session of the auth policy further in, if any.
    let stamper: SessionStamper
    /// Counts the calls to ``clear()``; a miss stores its answer only if none came since it
    /// started. Shared by copies, and held while an answer is stored.
    let clears = Locked<UInt64>(0)
    /// The store, when it counts its own clears: emptying it then voids misses as ``clear()`` does.
    let countingStore: (any ClearCountingCacheStore)?
    /// How credentials are digested for the store: with a ``DiskCacheStore``'s key, if it is one.
    let secrets: CacheSecrets

    /// Creates a caching dispatcher.
    ///
    /// - Parameters:
    ///   - base: The dispatcher that sends what the store cannot answer.
    ///   - store: Where the responses are kept.
    ///   - baseURL: The URL relative paths resolve against, for the cache key; by default the
    ///     wrapped dispatcher's when it is a `URLSessionDispatcher`.
    ///   - now: The time, for freshness and ages; inject one in tests.
    public init(
        base: any NetworkDispatcher, store: any CacheStore, baseURL: URL? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.base = base
        self.store = store
        self.baseURL = baseURL ?? (base as? URLSessionDispatcher)?.baseURL
        self.keyBase = self.baseURL.map(WireURL.Base.init)
        self.memoryLimit = (store as? MemoryCacheStore)?.byteLimit
        self.countingStore = store as? any ClearCountingCacheStore
        self.secrets = (store as? DiskCacheStore)?.secrets ?? .unkeyed
        self.stamper = SessionStamper(below: base)
        self.now = now
    }

    /// Removes every stored response, and voids the misses in flight: what they fetch is
    /// delivered to their callers but not stored. Call it when the signed-in user changes
    /// (`AuthState`'s `alsoClear`).
    public func clear() {
        clears.withLock { clears in
            clears &+= 1
            store.removeAll()
        }
    }

    /// Answers from the store when it can, else sends the request through the wrapped dispatcher.
    ///
    /// A fresh stored response is delivered before this returns; a miss goes to the wrapped
    /// dispatcher on callbacks. Neither starts a task.
    @discardableResult
    public func dispatch(
        request: RequestData,
        onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        switch plan(for: stamper.stamped(request)) {
        case .answer(let response):
            onSuccess(response)
            return CancellableAction.none
        case .send(let sent, let then):
            return base.dispatch(
                request: sent, onSuccess: { [self] in onSuccess(conclude(then, sent, with: $0)) },
                onError: onError)
        }
    }

    func send(_ request: RequestData) async throws(NetworkError) -> NetworkResponse {
        switch plan(for: stamper.stamped(request)) {
        case .answer(let response): return response
        case .send(let sent, let then): return conclude(then, sent, with: try await base.sendInline(sent))
        }
    }

    /// What the cache does with a request before anything is sent.
    enum Plan {
        /// Answer with this response, from the store, without sending anything.
        case answer(NetworkResponse)
        /// Send this request through the wrapped dispatcher, then do `then` with the answer.
        case send(RequestData, then: Conclusion)
    }

    /// What the cache does with the wrapped dispatcher's answer.
    enum Conclusion: Sendable {
        /// Nothing: the cache takes no part.
        case pass
        /// On a non-error answer to an unsafe request, remove what is stored for its URL.
        case invalidate
        /// Complete the miss with the answer.
        case complete(Miss)
    }

    /// The response to hand back for the wrapped dispatcher's `response` to `sent`.
    private func conclude(_ conclusion: Conclusion, _ sent: RequestData, with response: NetworkResponse)
        -> NetworkResponse
    {
        switch conclusion {
        case .pass: return response
        case .invalidate:
            invalidate(after: response, to: sent)
            return response
        case .complete(let miss): return complete(miss, with: response)
        }
    }

    /// A request the store could not answer, on its way to the wrapped dispatcher.
    struct Miss: Sendable {
        let request: RequestData
        /// The request made conditional, when a stored response can be revalidated; kept apart
        /// so that a plain miss holds one request, not two copies of it.
        let conditional: RequestData?
        let key: String
        let identity: RequestIdentity
        /// The count of ``CachingDispatcher/clear()`` calls when the miss started.
        let clears: UInt64
        /// The count of the store's own `removeAll()` calls then, for a store that counts them.
        let storeClears: UInt64?
        let noStore: Bool
        let variants: [CachedResponse]
        let stored: CachedResponse?
        let requestTime: Date

        /// The request as sent: the conditional one, or the request itself.
        var sent: RequestData { conditional ?? request }
    }

    /// One parse of the request's `Cache-Control`, one look at the store and one reading of the
    /// time serve both the lookup for a fresh response and the miss that follows it.
    private func plan(for request: RequestData) -> Plan {
        guard request.method == .get || request.method == .head else {
            return .send(request, then: .invalidate)
        }
        guard let key = cacheKey(for: request), Self.usesCache(request) else {
            return .send(request, then: .pass)
        }
        let control = CacheControl(request.headers)
        // Kept with the request, so that a coalescer further in reads it instead of computing it.
        var request = request
        request.noteIdentity()
        let identity = request.identity
        let clears = clears.withLock { $0 }
        let storeClears = countingStore?.clearCount
        let requestTime = now()
        let variants = store.responses(for: key)
        // Digested once, not once per variant: with a disk store's key it is an HMAC.
        let storedIdentity = variants.isEmpty ? "" : secrets.identity(identity)
        let stored =
            control.noStore
            ? nil : variants.first { $0.identity == storedIdentity && $0.matches(request, secrets: secrets) }
        if let stored {
            let age = CacheFreshness.currentAge(of: stored, now: requestTime)
            if CacheFreshness.isFresh(stored, for: control, age: age) {
                return .answer(stored.response(for: request, age: age, status: .hit))
            }
        }
        if control.onlyIfCached {
            return .answer(NetworkResponse(statusCode: 504, request: request))
        }
        let conditional = stored.flatMap { Self.conditional(request, revalidating: $0) }
        let miss = Miss(
            request: request, conditional: conditional, key: key, identity: identity, clears: clears,
            storeClears: storeClears, noStore: control.noStore,
            variants: variants, stored: conditional == nil ? nil : stored, requestTime: requestTime)
        return .send(miss.sent, then: .complete(miss))
    }

    /// The response to a miss: a `304` merged into the stored response, else the answer, stored
    /// when it may be.
    private func complete(_ miss: Miss, with response: NetworkResponse) -> NetworkResponse {
        let responseTime = now()
        let request = miss.request
        if response.statusCode == 304, let stored = miss.stored {
            let updated = stored.updated(
                with: response, requestTime: miss.requestTime, responseTime: responseTime)
            if !CacheControl(updated.headers).noStore { save(updated, among: miss.variants, for: miss) }
            let age = CacheFreshness.currentAge(of: updated, now: responseTime)
            return updated.response(for: request, age: age, status: .revalidated)
        }
        if !miss.noStore, isStorable(response, for: request) {
            // What storing an entry that is over the limit would do, without building it.
            guard !refusesEntry(for: miss, with: response) else {
                store.removeResponses(for: miss.key)
                return response
            }
            let entry = CachedResponse(
                key: miss.key, request: request, identity: miss.identity, response: response,
                requestTime: miss.requestTime, responseTime: responseTime, secrets: secrets)
            save(entry, among: miss.variants, for: miss)
        }
        return response
    }

    /// Whether the cache takes part in `request`: it has no conditional or range headers of its own.
    static func usesCache(_ request: RequestData) -> Bool {
        !request.headers.contains { field in
            // Every one of these names starts with I or R: most fields are ruled out by one byte.
            guard let first = field.name.utf8.first, first | 0x20 == 0x69 || first | 0x20 == 0x72 else {
                return false
            }
            return validationHeaders.contains { field.name.caseInsensitiveEquals($0) }
        }
    }

    /// The request fields by which a caller manages validation or ranges itself.
    private static let validationHeaders = [
        "If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range", "Range",
    ]

    /// `request` made conditional on `stored`'s validators, or `nil` when it has none.
    private static func conditional(_ request: RequestData, revalidating stored: CachedResponse)
        -> RequestData?
    {
        var conditional = request
        if let etag = stored.headers["ETag"] { conditional.headers.set("If-None-Match", etag) }
        if let modified = stored.headers["Last-Modified"] {
            conditional.headers.set("If-Modified-Since", modified)
        }
        guard conditional != request else { return nil }
        // Validators are no credentials: the identity stays the request's.
        conditional.marks.identity = request.marks.identity
        return conditional
    }
}

extension NetworkDispatcher {
    /// This dispatcher behind a private HTTP cache (RFC 9111) that keeps responses in `store`.
    ///
    /// ```swift
    /// let cache = MemoryCacheStore(byteLimit: 20_000_000)
    /// let api = URLSessionDispatcher(baseURL: baseURL).caching(cache)
    /// ```
    ///
    /// - Parameters:
    ///   - store: Where the responses are kept; a 10 MB ``MemoryCacheStore`` by default.
    ///   - baseURL: The URL relative paths resolve against for the cache key; by default this
    ///     dispatcher's when it is a `URLSessionDispatcher`.
    ///   - now: The time, for freshness and ages; inject one in tests.
    /// - Returns: The caching dispatcher.
    public func caching(
        _ store: any CacheStore = MemoryCacheStore(), baseURL: URL? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) -> CachingDispatcher {
        CachingDispatcher(base: self, store: store, baseURL: baseURL, now: now)
    }
}
