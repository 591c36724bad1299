import Errand

/// The directives of a message's `Cache-Control` header fields (RFC 9111 §5.2), read robustly.
///
/// Every `Cache-Control` field of the message counts, as one comma-separated list. Directive
/// names ignore case; a value may be a token or a quoted string (commas inside quotes do not
/// split). A malformed list never stops the reading: a piece that is not a directive is skipped.
///
/// Delta-seconds values (`max-age`, `s-maxage`, `min-fresh`) are read as RFC 9111 §1.2.2 asks:
/// digits only, a value too large for the machine is clamped to 2^31 seconds (about 68 years),
/// and anything else (`abc`, `-1`, `1.5`, empty) is invalid. An invalid `max-age` in a
/// response is taken as `max-age=0`, stale at once, the conservative reading §4.2.1 suggests.
struct CacheControl: Sendable, Equatable {
    /// The largest delta-seconds value kept, as RFC 9111 §1.2.2 suggests.
    static let maximumSeconds = 2_147_483_648

    /// Directive names, lower-cased, with their value when they had one (quotes removed).
    private(set) var directives: [String: String?] = [:]

    /// Reads every `Cache-Control` field of `headers`.
    init(_ headers: HTTPHeaders) {
        for value in headers.values(for: "Cache-Control") {
            read(value)
        }
    }

    /// Whether the directive `name` (lower case) is present, with or without a value.
    func has(_ name: String) -> Bool {
        directives[name] != nil
    }

    /// The delta-seconds of directive `name`: `nil` when it is absent, `0` when its value is not
    /// a valid number, clamped to ``maximumSeconds`` when it is huge.
    func seconds(_ name: String) -> Int? {
        guard let entry = directives[name] else { return nil }
        guard let value = entry else { return 0 }
        return Self.deltaSeconds(value) ?? 0
    }

    /// `no-store`: nothing of this exchange may be stored.
    var noStore: Bool { has("no-store") }
    /// `no-cache`: a stored response must be revalidated before each use. The qualified form
    /// (`no-cache="Set-Cookie"`) is treated as the unqualified one, as §5.2.2.4 allows.
    var noCache: Bool { has("no-cache") }
    /// `must-revalidate`: once stale, the response may not be used without revalidation.
    var mustRevalidate: Bool { has("must-revalidate") }
    /// `public`: any cache may store the response.
    var isPublic: Bool { has("public") }
    /// `private`: only a private cache, such as this one, may store the response.
    var isPrivate: Bool { has("private") }
    /// `max-age`, in seconds.
    var maxAge: Int? { seconds("max-age") }
    /// `s-maxage` (for shared caches; a private cache ignores it for freshness).
    var sharedMaxAge: Int? { seconds("s-maxage") }
    /// `min-fresh` of a request, in seconds.
    var minFresh: Int? { seconds("min-fresh") }
    /// `only-if-cached` of a request.
    var onlyIfCached: Bool { has("only-if-cached") }

    /// Reads one field value into ``directives``; the first occurrence of a name wins.
    private mutating func read(_ field: String) {
        var scalars = Substring(field).unicodeScalars[...]
        while !scalars.isEmpty {
            var name = ""
            while let scalar = scalars.first, scalar != ",", scalar != "=" {
                name.unicodeScalars.append(scalar)
                scalars.removeFirst()
            }
            var value: String?
            if scalars.first == "=" {
                scalars.removeFirst()
                value = Self.readValue(&scalars)
            }
            // Skip whatever is left up to the next comma (garbage after a quoted string).
            while let scalar = scalars.first, scalar != "," { scalars.removeFirst() }
            if !scalars.isEmpty { scalars.removeFirst() }
            let key = name.trimmingWhitespace().lowercased()
            guard !key.isEmpty, directives[key] == nil else { continue }
            directives[key] = .some(value?.trimmingWhitespace())
        }
    }

    /// Reads a token or a quoted string (with `\` escapes) up to the next comma.
    private static func readValue(_ scalars: inout Substring.UnicodeScalarView.SubSequence) -> String {
        while let scalar = scalars.first, scalar == " " || scalar == "\t" { scalars.removeFirst() }
        var value = ""
        guard scalars.first == "\"" else {
            while let scalar = scalars.first, scalar != "," {
                value.unicodeScalars.append(scalar)
                scalars.removeFirst()
            }
            return value
        }
        scalars.removeFirst()
        while let scalar = scalars.first {
            scalars.removeFirst()
            if scalar == "\"" { break }
            if scalar == "\\", let escaped = scalars.first {
                scalars.removeFirst()
                value.unicodeScalars.append(escaped)
            } else {
                value.unicodeScalars.append(scalar)
            }
        }
        return value
    }

    /// Non-negative decimal digits as seconds, clamped to ``maximumSeconds``; `nil` otherwise.
    static func deltaSeconds(_ text: String) -> Int? {
        guard !text.utf8.isEmpty else { return nil }
        var result = 0
        for byte in text.utf8 {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            result = min(result * 10 + Int(byte - 0x30), maximumSeconds)
        }
        return result
    }
}

extension String {
    /// The string without spaces and tabs at either end.
    func trimmingWhitespace() -> String {
        var scalars = Substring(self).unicodeScalars[...]
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
