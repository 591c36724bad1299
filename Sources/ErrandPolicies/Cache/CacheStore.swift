import Errand

/// Where an HTTP cache keeps its responses: ``MemoryCacheStore``, ``DiskCacheStore``, or your own.
///
/// A store keeps, under each cache key, the responses stored for it: one per combination of the
/// request header values that the responses' `Vary` field nominates. It decides nothing about
/// HTTP; the ``CachingDispatcher`` does. Calls come from any thread, so a store is `Sendable`
/// and guards its state; a store that cannot read an entry (a corrupt file) drops it and reports
/// none, never fails.
public protocol CacheStore: Sendable {
    /// The responses stored under `key`, or none.
    ///
    /// - Parameter key: The cache key (the request's URL).
    /// - Returns: The stored responses, most recently stored first.
    func responses(for key: String) -> [CachedResponse]

    /// Replaces what is stored under `key`; an empty list removes the key.
    ///
    /// A store with a byte limit may evict other keys (least recently used first) to make room,
    /// and stores nothing when the responses alone are over its limit.
    ///
    /// - Parameters:
    ///   - responses: The responses to keep, most recently stored first.
    ///   - key: The cache key.
    func store(_ responses: [CachedResponse], for key: String)

    /// Removes everything stored under `key`.
    ///
    /// - Parameter key: The cache key.
    func removeResponses(for key: String)

    /// Removes everything, for example when the signed-in user changes.
    func removeAll()
}

/// A store of this module, which counts its ``CacheStore/removeAll()`` calls, so that emptying
/// the store itself voids the misses in flight as ``CachingDispatcher/clear()`` does (an
/// `alsoClear` made before the cache can reach only the store).
protocol ClearCountingCacheStore: CacheStore {
    /// How many times the store was emptied.
    var clearCount: UInt64 { get }

    /// Stores `responses` under `key` unless the store was emptied since its count was `count`,
    /// checked and stored under the lock that empties it.
    func store(_ responses: [CachedResponse], for key: String, ifClearCountIs count: UInt64)
}
