import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSessionDispatcher {
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
