import Errand
import Foundation

extension CassetteVerifier {
    /// `recorded` with its scheme, host and port taken from `baseURL`; its user info, path,
    /// query and encoding kept byte for byte. Which credentials another origin does not get is
    /// decided later, on the URL actually sent (see ``withholdingCredentials(from:recorded:)``).
    ///
    /// - Throws: `invalidRequest` when the recorded URL has no scheme and host to replace, or
    ///   the base URL has none to give.
    static func target(_ recorded: String, under baseURL: URL?) throws(NetworkError) -> String {
        guard let baseURL else { return recorded }
        let shown = SecretVocabulary.default
        guard let separator = recorded.range(of: "://") else {
            throw NetworkError(
                code: .invalidRequest,
                message:
                    "The recorded URL \"\(EscapedText.line(shown.redactingQuery(ofURL: recorded)))\" "
                    + "has no scheme and host for the base URL to replace.")
        }
        guard let scheme = baseURL.scheme, let host = baseURL.host, !host.isEmpty else {
            throw NetworkError(
                code: .invalidRequest,
                message:
                    "The base URL \"\(EscapedText.line(shown.redactingQuery(ofURL: baseURL.absoluteString)))\" "
                    + "has no scheme and host.")
        }
        let afterAuthority = recorded[separator.upperBound...].firstIndex { "/?#".contains($0) }
        let authority = recorded[separator.upperBound..<(afterAuthority ?? recorded.endIndex)]
        let userInfo = authority.lastIndex(of: "@").map { authority[...$0] } ?? ""
        let rest = afterAuthority.map { String(recorded[$0...]) } ?? ""
        let hostText = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let port = baseURL.port.map { ":\($0)" } ?? ""
        return "\(scheme)://\(userInfo)\(hostText)\(port)\(rest)"
    }

    /// The origin of a URL as written, `scheme://host:port` in lower case, the port always
    /// written; `nil` for a URL without `scheme://`, which has no origin to compare.
    ///
    /// The host is what follows the authority's last `@`, as curl and URLSession read it:
    /// `https://api.example.com@localhost:8080/` goes to `localhost`.
    static func origin(ofURL url: String) -> String? {
        guard let separator = url.range(of: "://"), separator.lowerBound > url.startIndex else { return nil }
        let end = url[separator.upperBound...].firstIndex { "/?#".contains($0) } ?? url.endIndex
        let authority = url[separator.upperBound..<end]
        let hostAndPort =
            authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
        return origin(scheme: String(url[..<separator.lowerBound]), hostAndPort: hostAndPort)
    }

    /// `scheme://host:port` in lower case, the port always written (80 or 443 by default).
    private static func origin(scheme: String, host: String, port: Int?) -> String {
        let scheme = scheme.lowercased()
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        let defaultPort = ["http": 80, "ws": 80, "https": 443, "wss": 443][scheme]
        return "\(scheme)://\(host):\(port ?? defaultPort ?? -1)"
    }

    /// The origin of a recorded URL's scheme and `host[:port]` text.
    private static func origin(scheme: String, hostAndPort: Substring) -> String {
        var host = hostAndPort
        var port: Int?
        if let colon = hostAndPort.lastIndex(of: ":"), !hostAndPort[colon...].contains("]") {
            host = hostAndPort[..<colon]
            // A port that is not a number gives no origin equal to a real one.
            port = Int(hostAndPort[hostAndPort.index(after: colon)...]) ?? -2
        }
        return origin(scheme: scheme, host: String(host), port: port)
    }
}
