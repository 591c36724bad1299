import Foundation

extension RequestData {
    /// The full URL of the request, as it goes on the wire: `path` resolved against `baseURL`,
    /// with the query appended.
    ///
    /// An absolute `path` (one with a scheme) is used as it is. A relative one is joined to the
    /// base URL with exactly one `/` between them, whatever slashes either side has, so
    /// `https://host/api` + `/users` is `https://host/api/users` (not `https://host/users`).
    ///
    /// The path is sent as written: escapes already in it (`%2F`) are kept, and only what may
    /// not appear in a URL is escaped (space, `"`, `<`, `>`, `[`, `]`, `{`, `}`, `|`, `\`, `^`,
    /// backtick, non-ASCII, and a `%` not followed by two hex digits, which becomes `%25`).
    /// A fragment (`#section`) is never sent: it is dropped, as browsers and curl do. A query
    /// written in the path stays, and query items follow it after `&` (or after `?` when the
    /// path has none), so `/a?x=1#top` with item `k=v` is `/a?x=1&k=v`. `.` and `..` segments
    /// are resolved (`/a/../b` is `/b`), as curl, which sends the request on Linux, and browsers do.
    ///
    /// Declared with untyped `throws` so that `catch let error as NetworkError` compiles
    /// everywhere (see "Catching errors" in the README); `NetworkError` is the only error thrown.
    ///
    /// - Parameter baseURL: The dispatcher's base URL, if it has one.
    /// - Returns: The absolute URL.
    /// - Throws: `NetworkError` with code `invalidRequest` when the path is relative and there is
    ///   no base URL, or the result is not a valid URL (no host, or a host with characters a host
    ///   may not hold).
    public func url(relativeTo baseURL: URL?) throws -> URL {
        try resolvedURL(relativeTo: baseURL)
    }

    /// ``url(relativeTo:)`` with its error type known to the compiler, for the package's own callers.
    package func resolvedURL(relativeTo baseURL: URL?) throws(NetworkError) -> URL {
        let full: String
        do {
            full = try WireURL.string(path: path, baseURL: baseURL, query: query)
        } catch {
            let hint =
                baseURL == nil && !Self.hasScheme(path)
                ? "give the dispatcher a baseURL or use an absolute URL." : "check the URL."
            throw NetworkError(
                code: .invalidRequest,
                message: "The path \(Self.shownRedacted(path)) cannot be sent: \(error.reason); \(hint)",
                request: self)
        }
        guard let url = URL(string: full), url.scheme != nil, url.host != nil else {
            throw NetworkError(
                code: .invalidRequest,
                message: "\(Self.shownRedacted(full)) is not a valid URL; check the host and port.",
                request: self)
        }
        return url
    }

    /// A path or URL as an error message quotes it: in quotes, control characters escaped, and
    /// user info and secret query values hidden as in ``description``, since a message is
    /// logged on its own.
    static func shownRedacted(_ text: String) -> String {
        EscapedText.quoted(descriptionVocabulary.redactingQuery(ofURL: text))
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
