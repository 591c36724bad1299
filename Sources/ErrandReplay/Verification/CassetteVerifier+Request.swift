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
        /// The request, after ``Options/mapRequest``.
        let request: RequestData
        /// What was left out, by name (`header Authorization`, `query item api_key`, `URL user
        /// info`, `body's secret values`), never by value.
        let withheld: [String]
    }

    /// The request to send for a recorded one, before ``Options/mapRequest``: its URL under the
    /// base URL, its method, its headers but the redacted and connection ones,
    /// ``Options/setHeaders``, and its body.
    ///
    /// - Throws: `invalidRequest` when the recorded URL has no scheme and host to replace.
    func prepared(for recorded: HAR.Request) throws(NetworkError) -> RequestData {
        let url = try Self.target(recorded.url, under: options.baseURL)
        var headers = HTTPHeaders()
        for header in recorded.matchableHeaders
        where !Self.connectionHeaders.contains(HARCaseInsensitive.key(header.name))
            && !header.value.contains(options.redactionPlaceholder)
            && !options.setHeaders.contains(header.name)
        {
            headers.add(header.name, header.value)
        }
        for field in options.setHeaders { headers.add(field.name, field.value) }
        var body: RequestData.Body?
        if let data = recorded.body, !data.isEmpty {
            body = .raw(data, contentType: recorded.contentType ?? "application/octet-stream")
        }
        return RequestData(
            path: url, method: HTTPMethod(rawValue: recorded.method), headers: headers, body: body,
            timeout: options.timeout)
    }

    /// `request`, the one about to be sent, without the recorded credentials it still carries
    /// when the URL it goes to (after the base URL and ``Options/mapRequest``, such as a
    /// `--rewrite`) is not at the origin it was recorded from, as a browser keeps its cookies.
    ///
    /// Left out: the URL's recorded user info, the recorded query items that
    /// ``Options/vocabulary`` names (`SecretVocabulary.matchesQueryItem(_:)`: `api_key`, `key`…),
    /// the recorded headers it names unless ``Options/setHeaders`` sets them, and the secret
    /// values of the recorded body, replaced by the placeholder as logs show them (the whole
    /// body when it cannot be read as its type says). What the mapping itself added is sent.
    func withholdingCredentials(from request: RequestData, recorded: HAR.Request) -> Outgoing {
        let sentOrigin = Self.origin(ofURL: request.path)
        guard sentOrigin == nil || sentOrigin != Self.origin(ofURL: recorded.url) else {
            return Outgoing(request: request, withheld: [])
        }
        let vocabulary = options.vocabulary
        var request = request
        var withheld: [String] = []
        if let range = SecretVocabulary.userInfo(inURL: request.path),
            let recordedRange = SecretVocabulary.userInfo(inURL: recorded.url),
            request.path[range] == recorded.url[recordedRange]
        {
            // The user info and its `@`.
            request.path.removeSubrange(range.lowerBound...range.upperBound)
            withheld.append("URL user info")
        }
        let recordedPieces = Set(HARURLQuery.parts(of: recorded.url).query?.split(separator: "&") ?? [])
        let stripped = Self.removingQueryItems(from: request.path) { name, piece in
            vocabulary.matchesQueryItem(name) && recordedPieces.contains(piece)
        }
        request.path = stripped.url
        withheld += stripped.names.map { "query item \($0)" }
        let recordedHeaders = recorded.matchableHeaders
        var headers = HTTPHeaders()
        for header in request.headers {
            let isRecorded = recordedHeaders.contains {
                HARCaseInsensitive.key($0.name) == HARCaseInsensitive.key(header.name)
                    && $0.value == header.value
            }
            if isRecorded, vocabulary.matches(header.name), !options.setHeaders.contains(header.name) {
                withheld.append("header \(header.name)")
                continue
            }
            headers.add(header.name, header.value)
        }
        request.headers = headers
        if let body = request.body, let data = body.data, !data.isEmpty, data == recorded.body {
            let redacted = vocabulary.redactedBodyAndSecrets(
                data, contentType: request.effectiveHeaders["Content-Type"])
            if let redacted, !redacted.data.isEmpty, redacted.data != data {
                request.body = .raw(redacted.data, contentType: body.contentType)
                withheld.append("body's secret values")
            } else if redacted == nil || redacted?.data.isEmpty == true {
                request.body = nil
                withheld.append("body (it cannot be read as its type says, to leave out its secrets alone)")
            }
        }
        var unique: Set<String> = []
        return Outgoing(
            request: request, withheld: withheld.filter { unique.insert(HARCaseInsensitive.key($0)).inserted }
        )
    }

    /// `url` without the query items that `isCredential` (given the decoded name and the item as
    /// written), and their names; every other byte (the other items, their escapes, the
    /// fragment) as it was.
    static func removingQueryItems(
        from url: String, where isCredential: (_ name: String, _ piece: Substring) -> Bool
    ) -> (url: String, names: [String]) {
        let parts = HARURLQuery.parts(of: url)
        guard let query = parts.query else { return (url, []) }
        var names: [String] = []
        let kept = query.split(separator: "&", omittingEmptySubsequences: false).filter { piece in
            let name = PercentEncoding.unescape(HARURLQuery.nameAndValue(of: piece).name, plusIsSpace: true)
            guard isCredential(name, piece) else { return true }
            names.append(name)
            return false
        }
        guard !names.isEmpty else { return (url, []) }
        let rest = kept.isEmpty ? "" : "?" + kept.joined(separator: "&")
        return (String(parts.base) + rest + (parts.fragment.map { "#" + $0 } ?? ""), names)
    }
}
