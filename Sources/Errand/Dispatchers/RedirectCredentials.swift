import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a followed redirect may carry: the request's credentials go only to the origin they
/// were given for, as browsers, curl and Alamofire's documentation have it.
///
/// When a redirect leads to another origin (scheme, host as ``HostName`` spells it, port with
/// the scheme's default), every header the vocabulary names (`Authorization`,
/// `Proxy-Authorization`, `Cookie`, `X-API-Key`, …) is removed from the new request, and so is
/// the user info the new URL kept from the original one. A redirect to the same origin keeps
/// them. The query of the new URL is the server's choice and is sent as it wrote it.
enum RedirectCredentials {
    /// A URL's origin in one spelling: `scheme://host:port`, the scheme lower-cased, the host
    /// canonical and the port always written.
    struct Origin: Hashable {
        let scheme: String
        let host: HostName
        let port: Int

        /// The origin of `url`; `nil` when it has no scheme or host, or an unknown scheme and no port.
        init?(_ url: URL) {
            guard let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
                return nil
            }
            guard let port = url.port ?? Self.defaultPorts[scheme] else { return nil }
            self.scheme = scheme
            self.host = HostName.lenient(host)
            self.port = port
        }

        private static let defaultPorts = ["http": 80, "ws": 80, "https": 443, "wss": 443]
    }

    /// `redirected` as it may go out after a request to `original`: unchanged when both have one
    /// origin; otherwise without the headers `vocabulary` names, and without user info carried
    /// over from `original`.
    ///
    /// Two URLs without a known origin are not the same origin: credentials are withheld.
    ///
    /// - Parameters:
    ///   - redirected: The request the session proposes to send next.
    ///   - original: The URL the credentials were given for: the task's original request's.
    ///   - vocabulary: The names whose headers are credentials.
    /// - Returns: The request to send.
    static func withheld(
        from redirected: URLRequest, after original: URL?, vocabulary: SecretVocabulary = .default
    ) -> URLRequest {
        guard let url = redirected.url else { return redirected }
        if let original, let from = Origin(original), let to = Origin(url), from == to { return redirected }
        var request = redirected
        for name in (redirected.allHTTPHeaderFields ?? [:]).keys where vocabulary.matches(name) {
            request.setValue(nil, forHTTPHeaderField: name)
        }
        // FoundationNetworking keeps the original user info when the location gives only a host.
        if let original, vocabulary.hidesUserInfo, url.user != nil || url.password != nil,
            url.user == original.user, url.password == original.password,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        {
            components.user = nil
            components.password = nil
            if let bare = components.url { request.url = bare }
        }
        return request
    }
}
