/// The part of a request that the index looks up: the method and the normalised URL.
///
/// Two requests with equal keys differ at most in body, headers and what custom matchers look
/// at. The URL is normalised so that spelling differences that do not change its meaning do
/// not count: scheme and host in lower case, no default port, the path percent-decoded, an
/// empty path as `/`, the fragment dropped, and the query items decoded (`+` as a space),
/// without the ignored ones, and sorted.
struct RequestKey: Hashable, Sendable {
    /// The method in upper case.
    let method: String
    /// `scheme://host[:port]`, normalised; empty when the rules ignore the host.
    let origin: String
    /// The decoded path.
    let path: String
    /// The decoded query items that count, sorted by name, then value.
    let query: [Item]
    /// The whole key as one string, for the dictionary.
    let text: String

    /// One decoded query item.
    struct Item: Hashable, Sendable {
        let name: String
        let value: String
    }

    init(method: String, url: String, rules: MatchRules) {
        self.method = method.uppercased()
        let parts = HARURLQuery.parts(of: url)
        let location = Self.split(parts.base)
        origin = rules.ignoresHost ? "" : location.origin
        path = HARURLQuery.percentDecoded(location.path, plusIsSpace: false)
        query = (parts.query.map { HARURLQuery.items(in: $0, plusIsSpace: true) } ?? [])
            .filter { !rules.ignoredQueryItems.contains($0.name) }
            .map { Item(name: $0.name, value: $0.value) }
            .sorted { ($0.name, $0.value) < ($1.name, $1.value) }
        let queryText = query.map {
            HARURLQuery.percentEncoded($0.name) + "=" + HARURLQuery.percentEncoded($0.value)
        }
        text = self.method + " " + origin + path + "?" + queryText.joined(separator: "&")
    }

    /// The URL without its query, for messages: origin and path.
    var location: String { origin + path }

    /// Splits `scheme://authority/path` into a normalised origin and the raw path.
    private static func split(_ base: Substring) -> (origin: String, path: Substring) {
        guard let schemeEnd = base.range(of: "://") else {
            return ("", base.isEmpty ? "/" : base)
        }
        let scheme = base[..<schemeEnd.lowerBound].lowercased()
        let afterScheme = base[schemeEnd.upperBound...]
        let pathStart = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
        var authority = afterScheme[..<pathStart]
        if let at = authority.lastIndex(of: "@") {
            authority = authority[authority.index(after: at)...]
        }
        var host = authority.lowercased()
        if (scheme == "http" && host.hasSuffix(":80")) || (scheme == "https" && host.hasSuffix(":443")) {
            host = String(host[..<(host.lastIndex(of: ":") ?? host.endIndex)])
        }
        let path = afterScheme[pathStart...]
        return (scheme + "://" + host, path.isEmpty ? "/" : path)
    }
}
