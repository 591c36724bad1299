import Errand
import ErrandSync

/// A ``CacheStore`` in memory, bounded in bytes, evicting the least recently used keys first.
///
/// Reading a key counts as using it. Responses that alone are over the limit are not stored.
/// Nothing survives the process; use ``DiskCacheStore`` for that. `Sendable`: its state is
/// behind a lock.
public final class MemoryCacheStore: CacheStore, ClearCountingCacheStore {
    private struct Slot {
        var responses: [CachedResponse]
        var byteCount: Int
        var lastUse: UInt64
    }

    private struct State {
        var slots: [String: Slot] = [:]
        var byteCount = 0
        var clock: UInt64 = 0
        var clears: UInt64 = 0

        mutating func tick() -> UInt64 {
            clock &+= 1
            return clock
        }
    }

    /// The most bytes the stored responses may take together (bodies, headers and keys).
    public let byteLimit: Int
    private let state = Locked(State())

    /// Creates an empty store.
    ///
    /// - Parameter byteLimit: The most bytes the stored responses may take together; 10 MB by
    ///   default. Zero or less stores nothing.
    public init(byteLimit: Int = 10_000_000) {
        self.byteLimit = byteLimit
    }

    /// The bytes the stored responses take now.
    public var byteCount: Int {
        state.withLock { $0.byteCount }
    }

    /// The keys stored now, least recently used first.
    public var keys: [String] {
        state.withLock { state in state.slots.sorted { $0.value.lastUse < $1.value.lastUse }.map(\.key) }
    }

    /// The responses stored under `key`; reading marks the key as recently used.
    ///
    /// - Parameter key: The cache key.
    /// - Returns: The stored responses, most recently stored first.
    public func responses(for key: String) -> [CachedResponse] {
        state.withLock { state in
            guard var slot = state.slots[key] else { return [] }
            slot.lastUse = state.tick()
            state.slots[key] = slot
            return slot.responses
        }
    }

    /// Replaces what is stored under `key`, evicting the least recently used keys to make room.
    ///
    /// - Parameters:
    ///   - responses: The responses to keep; an empty list removes the key.
    ///   - key: The cache key.
    public func store(_ responses: [CachedResponse], for key: String) {
        put(responses, for: key, ifClearCountIs: nil)
    }

    func store(_ responses: [CachedResponse], for key: String, ifClearCountIs count: UInt64) {
        put(responses, for: key, ifClearCountIs: count)
    }

    var clearCount: UInt64 { state.withLock { $0.clears } }

    private func put(_ responses: [CachedResponse], for key: String, ifClearCountIs count: UInt64?) {
        let size = responses.reduce(0) { $0 + $1.byteCount }
        state.withLock { state in
            if let count, count != state.clears { return }
            if let old = state.slots.removeValue(forKey: key) { state.byteCount -= old.byteCount }
            guard !responses.isEmpty, size <= byteLimit else { return }
            while state.byteCount + size > byteLimit,
                let oldest = state.slots.min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                state.slots[oldest.key] = nil
                state.byteCount -= oldest.value.byteCount
            }
            state.slots[key] = Slot(responses: responses, byteCount: size, lastUse: state.tick())
            state.byteCount += size
        }
    }

    /// Removes everything stored under `key`.
    ///
    /// - Parameter key: The cache key.
    public func removeResponses(for key: String) {
        state.withLock { state in
            if let old = state.slots.removeValue(forKey: key) { state.byteCount -= old.byteCount }
        }
    }

    /// Removes everything; what a ``CachingDispatcher``'s misses in flight fetch is not stored.
    public func removeAll() {
        state.withLock { state in
            state.slots = [:]
            state.byteCount = 0
            state.clears &+= 1
        }
    }
}
