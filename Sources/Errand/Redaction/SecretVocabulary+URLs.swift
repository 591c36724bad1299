import Foundation

// The one reading of a URL's credentials: its user info and its secret query items. Everything
// that shows, stores, keys or records a URL goes through here.
extension SecretVocabulary {
    /// A path or a URL as written, with its credentials replaced by the placeholder: the whole
    /// user info (``hidesUserInfo``) and the values of secret query items
    /// (``matchesQueryItem(_:)``); every other byte (the host, the other items, their escapes,
    /// the fragment) is kept.
    ///
    /// A request's path may carry a query of its own (`/a?token=…`), next to its
    /// ``RequestData/query`` items, and an absolute one a user info: descriptions, log lines,
    /// cURL commands and stores read both through here and ``redactedQueryString(_:)``.
    ///
    /// - Parameters:
    ///   - text: A path such as `/a?token=x&page=2`, or a whole URL such as
    ///     `https://user:pw@host/a?key=k`.
    ///   - escapingPlaceholder: Whether the placeholder goes in percent-encoded, so that the
    ///     result is still a URL; as it is, for people to read, otherwise.
    /// - Returns: The text with its credentials replaced, or `text` itself when it has none:
    ///   `https://<redacted>@host/a?key=<redacted>`.
    package func redactingQuery(ofURL text: String, escapingPlaceholder: Bool = false) -> String {
        guard !isEmpty else { return text }
        let replacement = escapingPlaceholder ? PercentEncoding.escape(placeholder) : placeholder
        var result = text
        if let mark = text.firstIndex(of: "?") {
            let rest = text[text.index(after: mark)...]
            let end = rest.firstIndex(of: "#") ?? rest.endIndex
            let query = Self.redactingPieces(
                of: rest[..<end], replacement: replacement, plusIsSpace: true, hides: matchesQueryItem)
            if query != rest[..<end] { result = String(text[...mark]) + query + String(rest[end...]) }
        }
        // The user info ends before any `?`, so it is where it was.
        return redactingUserInfo(ofURL: result, escapingPlaceholder: escapingPlaceholder)
    }

    /// A URL as written with its user info replaced by the placeholder when ``hidesUserInfo``;
    /// the rest as it is. ``redactingQuery(ofURL:escapingPlaceholder:)`` hides the query too.
    ///
    /// - Parameters:
    ///   - text: A path or a URL as written.
    ///   - escapingPlaceholder: Whether the placeholder goes in percent-encoded.
    /// - Returns: `https://<redacted>@host/…`, or `text` itself when it has no user info.
    package func redactingUserInfo(ofURL text: String, escapingPlaceholder: Bool = false) -> String {
        guard hidesUserInfo, let range = Self.userInfo(inURL: text) else { return text }
        let replacement = escapingPlaceholder ? PercentEncoding.escape(placeholder) : placeholder
        guard text[range] != replacement else { return text }
        var result = text
        result.replaceSubrange(range, with: replacement)
        return result
    }

    /// Where the user info of an absolute URL is, as written: between `scheme://` and the last
    /// `@` of the authority (which ends at the first `/`, `?` or `#`); `nil` when there is none.
    ///
    /// An `@` in the path, the query or the fragment is not a user info, nor is a URL in a
    /// relative path's query (`/go?to=https://u:p@host`). The authority's last `@` ends it, as
    /// in browsers and curl, and an IPv6 host (`https://u:p@[::1]:8080/`) has none of its own.
    ///
    /// - Parameter text: A path or a URL as written.
    /// - Returns: The range of `user:password` (or of a lone user or token); `nil` when the
    ///   text has no scheme or its authority no `@`, or the user info is empty.
    package static func userInfo(inURL text: String) -> Range<String.Index>? {
        let bytes = text.utf8
        var index = bytes.startIndex
        // The scheme: a letter, then letters, digits, `+`, `-`, `.`, then `://`.
        guard index < bytes.endIndex, isLetter(bytes[index]) else { return nil }
        bytes.formIndex(after: &index)
        while index < bytes.endIndex, isSchemeByte(bytes[index]) { bytes.formIndex(after: &index) }
        for expected in "://".utf8 {
            guard index < bytes.endIndex, bytes[index] == expected else { return nil }
            bytes.formIndex(after: &index)
        }
        let start = index
        var at: String.Index?
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            if byte == UInt8(ascii: "@") { at = index }
            bytes.formIndex(after: &index)
        }
        guard let at, at > start else { return nil }
        return start..<at
    }

    /// The values a URL's user info stands for, so that their echoes can be hidden too: as
    /// written, the user and the password decoded, `user:password`, and the `Basic` credentials
    /// URLSession sends for them (whose spellings, see ``SecretSpelling/parts(of:)``, cover the
    /// base64 text too).
    ///
    /// - Parameter userInfo: The user info as written, such as `us%40er:p%3Ass`.
    /// - Returns: The non-empty values, without duplicates.
    package static func secretValues(ofUserInfo userInfo: Substring) -> [String] {
        let colon = userInfo.firstIndex(of: ":")
        let user = PercentEncoding.unescape(userInfo[..<(colon ?? userInfo.endIndex)])
        let password = colon.map { PercentEncoding.unescape(userInfo[userInfo.index(after: $0)...]) } ?? ""
        let pair = user + ":" + password
        var seen: Set<String> = []
        return [String(userInfo), user, password, pair, "Basic " + Data(pair.utf8).base64EncodedString()]
            .filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}
