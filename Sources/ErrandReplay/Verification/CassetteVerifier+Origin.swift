import Errand
import Foundation

extension CassetteVerifier {
    /// Where a recorded request goes: its URL under the base URL, and whether that is the origin
    /// it was recorded from.
    struct Target {
        /// The URL to send to.
        let url: String
        /// Whether scheme, host and port are the recorded ones (always, without a base URL).
        let sameOrigin: Bool
        /// Whether the recorded URL had user info, which another origin does not get.
        let hadUserInfo: Bool
    }

    /// `recorded` with its scheme, host and port taken from `baseURL`; its path, query and
    /// encoding kept byte for byte, and its user info kept only for the same origin.
    ///
    /// - Throws: `invalidRequest` when the recorded URL has no scheme and host to replace, or
    ///   the base URL has none to give.
    static func target(_ recorded: String, under baseURL: URL?) throws(NetworkError) -> Target {
        guard let baseURL else { return Target(url: recorded, sameOrigin: true, hadUserInfo: false) }
        guard let separator = recorded.range(of: "://") else {
            throw NetworkError(
                code: .invalidRequest,
                message:
                    "The recorded URL \"\(EscapedText.line(shownURL(recorded, vocabulary: .default)))\" "
                    + "has no scheme and host for the base URL to replace.")
        }
        guard let scheme = baseURL.scheme, let host = baseURL.host, !host.isEmpty else {
            throw NetworkError(
                code: .invalidRequest,
                message:
                    "The base URL \"\(EscapedText.line(shownURL(baseURL.absoluteString, vocabulary: .default)))\" "
                    + "has no scheme and host.")
        }
        let afterAuthority = recorded[separator.upperBound...].firstIndex { "/?#".contains($0) }
        let authority = recorded[separator.upperBound..<(afterAuthority ?? recorded.endIndex)]
        let at = authority.lastIndex(of: "@")
        let userInfo = at.map { authority[..<$0] }
        let recordedHost = at.map { authority[authority.index(after: $0)...] } ?? authority
        let rest = afterAuthority.map { String(recorded[$0...]) } ?? ""
        let sameOrigin =
            origin(scheme: String(recorded[..<separator.lowerBound]), hostAndPort: recordedHost)
            == origin(scheme: scheme, host: host, port: baseURL.port)
        let hostText = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let port = baseURL.port.map { ":\($0)" } ?? ""
        let kept = sameOrigin ? userInfo.map { "\($0)@" } ?? "" : ""
        return Target(
            url: "\(scheme)://\(kept)\(hostText)\(port)\(rest)", sameOrigin: sameOrigin,
            hadUserInfo: userInfo != nil)
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

    /// A URL as a report shows it: the values of the query items `vocabulary` names and any
    /// user info replaced by its placeholder.
    static func shownURL(_ url: String, vocabulary: SecretVocabulary) -> String {
        var shown = url
        if let separator = url.range(of: "://") {
            let end = url[separator.upperBound...].firstIndex { "/?#".contains($0) } ?? url.endIndex
            if let at = url[separator.upperBound..<end].lastIndex(of: "@") {
                shown = String(url[..<separator.upperBound]) + vocabulary.placeholder + String(url[at...])
            }
        }
        let parts = HARURLQuery.parts(of: shown)
        guard let query = parts.query, !vocabulary.isEmpty else { return shown }
        let redacted = SecretVocabulary.redactingPieces(
            of: query, replacement: vocabulary.placeholder, plusIsSpace: true, hides: vocabulary.matches)
        return String(parts.base) + "?" + redacted + (parts.fragment.map { "#" + $0 } ?? "")
    }
}
