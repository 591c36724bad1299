import Errand
import Foundation

extension CassetteVerifier {
    /// Headers a recording may hold that describe one connection or one transfer, not the
    /// request: the transport sets them again for the live one.
    static let connectionHeaders: Set<String> = [
        "host", "content-length", "connection", "keep-alive", "transfer-encoding", "te", "upgrade",
        "proxy-connection", "accept-encoding",
    ]

    /// A request to send for a recorded one, and the recorded credentials left out of it.
    struct Outgoing {
        /// The request, before ``Options/mapRequest``.
        let request: RequestData
        /// What was left out, by name (`header Authorization`, `query item api_key`, `URL user
        /// info`), never by value.
        let withheld: [String]
    }

    /// The request to send for a recorded one: its URL under the base URL, its method, its
    /// headers but the redacted and connection ones, ``Options/setHeaders``, and its body.
    ///
    /// Credentials go back only to the origin they were recorded from, as a browser sends its
    /// cookies: when the base URL's scheme, host or port is not the recorded one, the headers
    /// and query items the vocabulary names and the URL's user info are left out, unless
    /// ``Options/setHeaders`` sets that header.
    ///
    /// - Throws: `invalidRequest` when the recorded URL has no scheme and host to replace.
    func outgoing(for recorded: HAR.Request) throws(NetworkError) -> Outgoing {
        let target = try Self.target(recorded.url, under: options.baseURL)
        let vocabulary = options.vocabulary
        var withheld: [String] = []
        var url = target.url
        if !target.sameOrigin {
            if target.hadUserInfo { withheld.append("URL user info") }
            let stripped = Self.removingQueryItems(from: url, where: vocabulary.matches)
            url = stripped.url
            withheld += stripped.names.map { "query item \($0)" }
        }
        var headers = HTTPHeaders()
        for header in recorded.matchableHeaders
        where !Self.connectionHeaders.contains(HARCaseInsensitive.key(header.name))
            && !header.value.contains(options.redactionPlaceholder)
            && !options.setHeaders.contains(header.name)
        {
            if !target.sameOrigin, vocabulary.matches(header.name) {
                withheld.append("header \(header.name)")
                continue
            }
            headers.add(header.name, header.value)
        }
        for field in options.setHeaders { headers.add(field.name, field.value) }
        var body: RequestData.Body?
        if let data = recorded.body, !data.isEmpty {
            body = .raw(data, contentType: recorded.contentType ?? "application/octet-stream")
        }
        var unique: Set<String> = []
        return Outgoing(
            request: RequestData(
                path: url, method: HTTPMethod(rawValue: recorded.method), headers: headers, body: body,
                timeout: options.timeout),
            withheld: withheld.filter { unique.insert(HARCaseInsensitive.key($0)).inserted })
    }

    /// `url` without the query items whose decoded name `isCredential`, and their names; every
    /// other byte (the other items, their escapes, the fragment) as it was.
    static func removingQueryItems(from url: String, where isCredential: (String) -> Bool) -> (
        url: String, names: [String]
    ) {
        let parts = HARURLQuery.parts(of: url)
        guard let query = parts.query else { return (url, []) }
        var names: [String] = []
        let kept = query.split(separator: "&", omittingEmptySubsequences: false).filter { piece in
            let name = HARURLQuery.percentDecoded(HARURLQuery.nameAndValue(of: piece).name, plusIsSpace: true)
            guard isCredential(name) else { return true }
            names.append(name)
            return false
        }
        guard !names.isEmpty else { return (url, []) }
        let rest = kept.isEmpty ? "" : "?" + kept.joined(separator: "&")
        return (String(parts.base) + rest + (parts.fragment.map { "#" + $0 } ?? ""), names)
    }
}
