import Foundation

extension RequestData {
    /// The full URL of the request: `path` resolved against `baseURL`, with the query appended.
    ///
    /// An absolute `path` (one with a scheme) is used as it is. A relative one is joined to the
    /// base URL with exactly one `/` between them, whatever slashes either side has, so
    /// `https://host/api` + `/users` is `https://host/api/users` (not `https://host/users`).
    /// Query items are appended after `?`, or after `&` when the path already has a query.
    ///
    /// Declared with untyped `throws` so that `catch let error as NetworkError` compiles
    /// everywhere (see "Catching errors" in the README); `NetworkError` is the only error thrown.
    ///
    /// - Parameter baseURL: The dispatcher's base URL, if it has one.
    /// - Returns: The absolute URL.
    /// - Throws: `NetworkError` with code `invalidRequest` when the path is relative and there is
    ///   no base URL, or the result is not a valid URL.
    public func url(relativeTo baseURL: URL?) throws -> URL {
        try resolvedURL(relativeTo: baseURL)
    }

    /// ``url(relativeTo:)`` with its error type known to the compiler, for the package's own callers.
    package func resolvedURL(relativeTo baseURL: URL?) throws(NetworkError) -> URL {
        let joined: String
        if Self.hasScheme(path) {
            joined = path
        } else if let baseURL {
            var base = baseURL.absoluteString
            while base.hasSuffix("/") { base.removeLast() }
            let relative = path.drop { $0 == "/" }
            joined = relative.isEmpty ? base : base + "/" + relative
        } else {
            throw NetworkError(
                code: .invalidRequest,
                message: "The path \"\(path)\" is relative but the dispatcher has no base URL; "
                    + "give the dispatcher a baseURL or use an absolute URL.",
                request: self)
        }
        var full = joined
        let queryString = PercentEncoding.queryString(query)
        if !queryString.isEmpty {
            let separator =
                joined.contains("?") ? (joined.hasSuffix("?") || joined.hasSuffix("&") ? "" : "&") : "?"
            full += separator + queryString
        }
        guard let url = URL(string: full), url.scheme != nil, url.host != nil else {
            throw NetworkError(
                code: .invalidRequest,
                message: "\"\(full)\" is not a valid URL; percent-encode spaces and other reserved "
                    + "characters in the path.",
                request: self)
        }
        return url
    }

    /// Whether `string` starts with a URL scheme and `://`, such as `https://`.
    ///
    /// Byte by byte: this runs for every request, and `Character` iteration is slow.
    static func hasScheme(_ string: String) -> Bool {
        var bytes = string.utf8.makeIterator()
        guard let first = bytes.next(), isLetter(first) else { return false }
        while let byte = bytes.next() {
            if byte == UInt8(ascii: ":") {
                return bytes.next() == UInt8(ascii: "/") && bytes.next() == UInt8(ascii: "/")
            }
            guard
                isLetter(byte) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2B || byte == 0x2D
                    || byte == 0x2E
            else { return false }
        }
        return false
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
    }
}
