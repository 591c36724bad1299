import Foundation

extension SecretVocabulary {
    /// The `name=value` pieces of an escaped query or form body, split at `&`, with the value of
    /// each piece whose decoded name `hides` replaced by `replacement`; every other byte (other
    /// pieces, empty ones, unbalanced escapes) stays as written. Cassettes, flight recordings,
    /// descriptions, log lines and cURL commands all redact queries through here.
    ///
    /// - Parameters:
    ///   - text: The query (between `?` and `#`) or the form body.
    ///   - replacement: What stands for a hidden value, as written into the text.
    ///   - plusIsSpace: Whether `+` in a name or value is a space, as in form bodies.
    ///   - hides: Whether a decoded name is secret.
    ///   - hidden: Called with each decoded value replaced.
    /// - Returns: The text with secret values replaced.
    package static func redactingPieces(
        of text: Substring, replacement: String, plusIsSpace: Bool, hides: (String) -> Bool,
        hidden: (String) -> Void = { _ in }
    ) -> String {
        func decoded(_ part: Substring) -> String {
            PercentEncoding.unescape(
                plusIsSpace ? Substring(part.replacingOccurrences(of: "+", with: " ")) : part)
        }
        return text.split(separator: "&", omittingEmptySubsequences: false).map { piece -> String in
            guard let equals = piece.firstIndex(of: "="), hides(decoded(piece[..<equals])) else {
                return String(piece)
            }
            let value = piece[piece.index(after: equals)...]
            guard value != replacement else { return String(piece) }
            hidden(decoded(value))
            return String(piece[...equals]) + replacement
        }
        .joined(separator: "&")
    }

    /// The query of `items` as it goes on the wire, with secret values shown as the placeholder.
    func redactedQueryString(_ items: [URLQueryItem]) -> String {
        let escapedPlaceholder = PercentEncoding.escape(placeholder)
        return PercentEncoding.queryString(redacted(items)).replacingOccurrences(
            of: escapedPlaceholder, with: placeholder)
    }

    /// `GET /x?page=2`: the method, the path as written and the query items after it, every
    /// secret query value (in the path or in the items) and an absolute path's user info shown
    /// as the placeholder.
    package func redactedTarget(of request: RequestData) -> String {
        let path = redactingQuery(ofURL: request.path)
        let query = redactedQueryString(request.query)
        guard !query.isEmpty else { return "\(request.method) \(path)" }
        return "\(request.method) \(path)\(path.contains("?") ? "&" : "?")\(query)"
    }

    /// The values of `request` that this vocabulary hides, so that their echoes elsewhere (a
    /// response body that repeats the request, an error's text) can be hidden too with
    /// ``EchoNeedles``.
    ///
    /// They are the values of secret headers (and of each cookie in a secret `Cookie`), of
    /// secret query items in the path and after it, the user info of an absolute path (as
    /// written, decoded, and as the `Basic` credentials sent for it; see
    /// ``secretValues(ofUserInfo:)``), and the secret values of a JSON, form or multipart body.
    package func secretValues(of request: RequestData) -> Set<String> {
        guard !isEmpty else { return [] }
        var values: Set<String> = []
        func add(_ value: String?) {
            guard let value, !value.isEmpty, value != placeholder else { return }
            values.insert(value)
        }
        let headers = request.effectiveHeaders
        for header in headers where matches(header.name) {
            add(header.value)
            // A cookie's value alone is what a server echoes, not the whole header.
            for pair in header.value.split(separator: ";") {
                guard let equals = pair.firstIndex(of: "=") else { continue }
                add(pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces))
            }
        }
        for item in request.query where matchesQueryItem(item.name) { add(item.value) }
        secretValues(ofURL: request.path).forEach(add)
        if let body = request.body?.data {
            redactedBodyAndSecrets(body, contentType: headers["Content-Type"])?.secrets.forEach(add)
        }
        return values
    }

    /// The values of a URL (or a path with a query) that this vocabulary hides: its secret query
    /// values, decoded, and its user info (see ``secretValues(ofUserInfo:)``) when
    /// ``hidesUserInfo``. Empty values are left out.
    ///
    /// - Parameter url: The URL or path, as written.
    /// - Returns: The values to hide wherever they are echoed.
    package func secretValues(ofURL url: String) -> Set<String> {
        guard !isEmpty else { return [] }
        var values: Set<String> = []
        func add(_ value: String?) {
            guard let value, !value.isEmpty, value != placeholder else { return }
            values.insert(value)
        }
        if let mark = url.firstIndex(of: "?") {
            let query = url[url.index(after: mark)...].prefix { $0 != "#" }
            for item in PercentEncoding.queryItems(in: String(query)) where matchesQueryItem(item.name) {
                add(item.value)
            }
        }
        if hidesUserInfo, let range = Self.userInfo(inURL: url) {
            Self.secretValues(ofUserInfo: url[range]).forEach(add)
        }
        return values
    }

    /// Whether a word of `data` (a run of letters, digits, `-`, `_` and `.`) is a secret name:
    /// for text that cannot be parsed to redact, and so is shown only when it names no secret.
    func mayName(in data: Data) -> Bool {
        guard !isEmpty else { return false }
        var word: [UInt8] = []
        for byte in data {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
                UInt8(ascii: "."):
                word.append(byte)
            default:
                if !word.isEmpty, matches(String(decoding: word, as: UTF8.self)) { return true }
                word.removeAll(keepingCapacity: true)
            }
        }
        return !word.isEmpty && matches(String(decoding: word, as: UTF8.self))
    }
}
