extension NetworkResponse {
    /// Where a response came from, as far as an HTTP cache is concerned.
    ///
    /// Only a `CachingDispatcher` sets anything but ``network``. A policy outside the cache sees
    /// the status the cache set; a policy inside it (closer to the transport) always sees
    /// ``network``.
    public enum CacheStatus: String, Hashable, Sendable, CaseIterable {
        /// The server sent this response now; nothing came from a cache.
        case network
        /// A fresh stored response answered the request, and nothing was sent to the server.
        case hit
        /// A stale stored response was revalidated: the server answered `304 Not Modified`, and
        /// the stored body is delivered with its stored status and the updated headers.
        case revalidated
    }
}
