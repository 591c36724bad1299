import Foundation

/// How a request's path becomes the URL that goes on the wire; every dispatcher reads paths here.
///
/// A path is taken as written: escapes already in it (`%2F`) stay as they are, and only bytes
/// that may not appear in a URL are escaped (space, `"`, `<`, `>`, `[`, `]`, `{`, `}`, `|`, `\`,
/// `^`, backtick, controls, non-ASCII, and a `%` not followed by two hex digits). A fragment
/// (`#…`) is never sent: it is dropped, and query items go where it was. `.` and `..` segments
/// are resolved, as curl and browsers do before sending. `URL(string:)` cannot do
/// this: on Linux it re-escapes the `%` of existing escapes once it has to escape anything.
///
/// Byte by byte, without `URLComponents`: this runs for every request.
package enum WireURL {
    /// A path read into its parts, each escaped for the wire.
    struct Parts {
        /// `scheme://authority` for an absolute URL, `nil` for a relative path.
        var origin: String?
        /// The path, without query or fragment; may be empty.
        var path: String
        /// The query without its `?`; `nil` when the path has no `?`.
        var query: String?
    }

    /// Why a path cannot be read.
    package struct Unreadable: Error {
        /// What is wrong with the path.
        package let reason: String
    }

    /// The URL string for `path` resolved against `baseURL`, with `query` appended.
    ///
    /// A relative path is joined to the base URL's path with exactly one `/` between them; `.`
    /// and `..` segments are resolved, as curl does before sending. A query on the base URL is
    /// kept, ahead of the path's own query and `query`; a fragment on it is dropped.
    package static func string(path: String, baseURL: URL?, query: [URLQueryItem]) throws(Unreadable)
        -> String
    {
        try string(path: path, base: baseURL.map(Base.init), query: query)
    }

    /// A base URL read once, for callers that resolve many paths against the same one.
    ///
    /// A relative path joins the base URL's path: the base's query comes first and its fragment
    /// goes, so neither can swallow what follows.
    package struct Base: Sendable {
        /// The base URL's string up to its query, without trailing slashes.
        let prefix: String
        /// The base URL's query without its `?`, when it has one.
        let query: String?

        package init(_ url: URL) {
            var (prefix, query) = WireURL.split(url.absoluteString)
            while prefix.hasSuffix("/") { prefix.removeLast() }
            self.prefix = prefix
            self.query = query
        }
    }

    /// The URL string for `path` resolved against `base`, with `query` appended.
    package static func string(path: String, base: Base?, query: [URLQueryItem]) throws(Unreadable) -> String
    {
        let parts = try read(path)
        var result: String
        var existing = parts.query
        if let origin = parts.origin {
            result = origin + removingDotSegments(parts.path)
        } else if let base {
            result = base.prefix
            let relative = parts.path.drop { $0 == "/" }
            if hasDotSegment(relative) {
                // `..` may climb into the base URL's path, so resolve the two together.
                let base = try read(result)
                result = (base.origin ?? "") + removingDotSegments(base.path + "/" + relative)
            } else if !relative.isEmpty {
                result += "/" + relative
            }
            if let baseQuery = base.query { existing = joined(baseQuery, existing ?? "") }
        } else {
            throw Unreadable(reason: "it is relative but the dispatcher has no base URL")
        }
        let items = PercentEncoding.queryString(query)
        if let existing {
            result += "?" + existing
            if !items.isEmpty { result += existing.isEmpty || existing.hasSuffix("&") ? items : "&" + items }
        } else if !items.isEmpty {
            result += "?" + items
        }
        return result
    }

    /// An already escaped URL string without its fragment, cut before its query.
    fileprivate static func split(_ url: String) -> (beforeQuery: String, query: String?) {
        let withoutFragment = url.prefix { $0 != "#" }
        guard let mark = withoutFragment.firstIndex(of: "?") else { return (String(withoutFragment), nil) }
        return (
            String(withoutFragment[..<mark]), String(withoutFragment[withoutFragment.index(after: mark)...])
        )
    }

    /// Two query strings as one, with a single `&` between them when both have something.
    private static func joined(_ first: String, _ second: String) -> String {
        if first.isEmpty || second.isEmpty { return first + second }
        return first.hasSuffix("&") ? first + second : first + "&" + second
    }

    /// Splits `path` into origin, path and query, escapes each, and drops the fragment.
    static func read(_ path: String) throws(Unreadable) -> Parts {
        var path = path
        let result = path.withUTF8 { bytes in Result { () throws(Unreadable) in try read(bytes) } }
        return try result.get()
    }

    private static func read(_ bytes: UnsafeBufferPointer<UInt8>) throws(Unreadable) -> Parts {
        let end = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.count
        var pathStart = 0
        var origin: String?
        if let authorityStart = schemeEnd(bytes, before: end) {
            var authorityEnd = authorityStart
            while authorityEnd < end, bytes[authorityEnd] != UInt8(ascii: "/"),
                bytes[authorityEnd] != UInt8(ascii: "?")
            {
                authorityEnd += 1
            }
            try checkAuthority(bytes, authorityStart..<authorityEnd)
            origin = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<authorityEnd]), as: UTF8.self)
            pathStart = authorityEnd
        }
        var queryMark = pathStart
        while queryMark < end, bytes[queryMark] != UInt8(ascii: "?") { queryMark += 1 }
        let path = escaped(bytes, pathStart..<queryMark)
        let query = queryMark < end ? escaped(bytes, (queryMark + 1)..<end) : nil
        return Parts(origin: origin, path: path, query: query)
    }

    /// Where the authority starts when `bytes` begins with `scheme://`, else `nil`.
    private static func schemeEnd(_ bytes: UnsafeBufferPointer<UInt8>, before end: Int) -> Int? {
        guard end > 0, isLetter(bytes[0]) else { return nil }
        var index = 1
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":") {
                guard index + 2 < end, bytes[index + 1] == UInt8(ascii: "/"),
                    bytes[index + 2] == UInt8(ascii: "/")
                else { return nil }
                return index + 3
            }
            guard isLetter(byte) || isDigit(byte) || byte == 0x2B || byte == 0x2D || byte == 0x2E else {
                return nil
            }
            index += 1
        }
        return nil
    }

    /// Refuses an empty host and ASCII bytes that may not appear in an authority (RFC 3986
    /// §3.2). Non-ASCII bytes pass: `URL(string:)` turns an international host name into punycode.
    private static func checkAuthority(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>)
        throws(Unreadable)
    {
        guard !range.isEmpty else { throw Unreadable(reason: "it has no host") }
        for index in range {
            let byte = bytes[index]
            guard isAllowed(byte) || byte >= 0x80 || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")
            else {
                throw Unreadable(
                    reason: "its host holds \(PercentEncoding.shown(byte)), which a host may not contain")
            }
        }
    }

    /// The bytes in `range`, with every byte that may not appear in a path or query escaped.
    private static func escaped(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        guard let first = firstToEscape(slice) else { return String(decoding: slice, as: UTF8.self) }
        var output: [UInt8] = []
        output.reserveCapacity(slice.count + 16)
        output.append(contentsOf: slice[..<first])
        for index in first..<slice.count {
            let byte = slice[index]
            if isAllowed(byte) || (byte == UInt8(ascii: "%") && isEscape(slice, at: index)) {
                output.append(byte)
            } else {
                PercentEncoding.appendEscape(of: byte, to: &output)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func firstToEscape(_ slice: UnsafeBufferPointer<UInt8>) -> Int? {
        for index in slice.indices {
            let byte = slice[index]
            if isAllowed(byte) { continue }
            if byte == UInt8(ascii: "%"), isEscape(slice, at: index) { continue }
            return index
        }
        return nil
    }

    /// Whether the `%` at `index` starts a valid escape, `%` and two hex digits.
    private static func isEscape(_ slice: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        index + 2 < slice.count && isHex(slice[index + 1]) && isHex(slice[index + 2])
    }

    /// RFC 3986 `pchar` without `%`, plus `/` and `?`: what may stay as it is in a path or query.
    private static func isAllowed(_ byte: UInt8) -> Bool {
        if isLetter(byte) || isDigit(byte) { return true }
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
            UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"):
            return true
        default:
            return false
        }
    }

    static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= 0x30 && byte <= 0x39
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        isDigit(byte) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66)
    }
}
