import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSessionDispatcher {
    /// Whether every request must go through the tracked session so that a redirect to a pinned
    /// host can be stopped: where pins cannot be checked and some are configured. Only a
    /// dispatcher that owns its session has pins, and it sends every request that way already.
    var pinsNeedTracking: Bool {
        #if canImport(Security)
            false
        #else
            pins != nil
        #endif
    }

    /// Refuses, where pins cannot be checked, a request whose host is pinned: it fails closed
    /// rather than going out unpinned.
    func refuseUncheckablePins(_ urlRequest: URLRequest, request: RequestData) throws(NetworkError) {
        #if !canImport(Security)
            if let pins, let host = urlRequest.url?.host, pins.covers(host: host) {
                throw NetworkError.pinningUnavailable(host: host, request: request)
            }
        #endif
    }
}
