import Errand
import Foundation

extension CassetteVerifier {
    /// Headers a recording may hold that describe one connection or one transfer, not the
    /// request: the transport sets them again for the live one.
    static let connectionHeaders: Set<String> = [
        "host", "content-length", "connection", "keep-alive", "transfer-encoding", "te", "upgrade",
        "proxy-connection", "accept-encoding",
    ]

    /// The request to send for a recorded one: its URL under the base URL, its method, its
    /// headers but the redacted and connection ones, and its body.
    ///
    /// - Throws: `invalidRequest` when the recorded URL has no scheme and host to replace.
    func request(for recorded: HAR.Request) throws(NetworkError) -> RequestData {
        let url = try Self.url(recorded.url, under: options.baseURL)
        var headers = HTTPHeaders()
        for header in recorded.matchableHeaders
        where !Self.connectionHeaders.contains(HARCaseInsensitive.key(header.name))
            && !header.value.contains(options.redactionPlaceholder)
        {
            headers.add(header.name, header.value)
        }
        var body: RequestData.Body?
        if let data = recorded.body, !data.isEmpty {
            body = .raw(data, contentType: recorded.contentType ?? "application/octet-stream")
        }
        return RequestData(
            path: url, method: HTTPMethod(rawValue: recorded.method), headers: headers, body: body,
            timeout: options.timeout)
    }

    /// `recorded` with its scheme, host and port taken from `baseURL`; its path, query and
    /// encoding kept byte for byte.
    static func url(_ recorded: String, under baseURL: URL?) throws(NetworkError) -> String {
        guard let baseURL else { return recorded }
        guard let separator = recorded.range(of: "://") else {
            throw NetworkError(
                code: .invalidRequest,
                message:
                    "The recorded URL \"\(recorded)\" has no scheme and host for the base URL to replace.")
        }
        guard let scheme = baseURL.scheme, let host = baseURL.host, !host.isEmpty else {
            throw NetworkError(
                code: .invalidRequest,
                message: "The base URL \"\(baseURL.absoluteString)\" has no scheme and host.")
        }
        let afterAuthority = recorded[separator.upperBound...].firstIndex { "/?#".contains($0) }
        let rest = afterAuthority.map { String(recorded[$0...]) } ?? ""
        let hostText = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let port = baseURL.port.map { ":\($0)" } ?? ""
        return "\(scheme)://\(hostText)\(port)\(rest)"
    }
}
