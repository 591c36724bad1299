import Foundation

extension SecretVocabulary {
    /// A path or a URL as written, with the values of secret query items replaced by the
    /// placeholder; every other byte (the other items, their escapes, the fragment) is kept.
    ///
    /// A request's path may carry a query of its own (`/a?token=…`), next to its ``RequestData/query``
    /// items: descriptions, log lines and cURL commands read both through here and
    /// ``redactedQueryString(_:)``.
    ///
    /// - Parameters:
    ///   - text: A path such as `/a?token=x&page=2`, or a whole URL.
    ///   - escapingPlaceholder: Whether the placeholder goes in percent-encoded, so that the
    ///     result is still a URL; as it is, for people to read, otherwise.
    /// - Returns: The text with secret query values replaced, or `text` itself when it has none.
    func redactingQuery(ofURL text: String, escapingPlaceholder: Bool = false) -> String {
        guard !isEmpty, let mark = text.firstIndex(of: "?") else { return text }
        let rest = text[text.index(after: mark)...]
        let end = rest.firstIndex(of: "#") ?? rest.endIndex
        let shown = escapingPlaceholder ? PercentEncoding.escape(placeholder) : placeholder
        var changed = false
        let pieces = rest[..<end].split(separator: "&", omittingEmptySubsequences: false).map {
            piece -> String in
            guard let equals = piece.firstIndex(of: "="), matches(Self.queryName(piece[..<equals])) else {
                return String(piece)
            }
            changed = true
            return String(piece[...equals]) + shown
        }
        guard changed else { return text }
        return String(text[...mark]) + pieces.joined(separator: "&") + String(rest[end...])
    }

    /// The query of `items` as it goes on the wire, with secret values shown as the placeholder.
    func redactedQueryString(_ items: [URLQueryItem]) -> String {
        let escapedPlaceholder = PercentEncoding.escape(placeholder)
        return PercentEncoding.queryString(redacted(items)).replacingOccurrences(
            of: escapedPlaceholder, with: placeholder)
    }

    /// `GET /x?page=2`: the method, the path as written and the query items after it, every
    /// secret query value (in the path or in the items) shown as the placeholder.
    func redactedTarget(of request: RequestData) -> String {
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
    /// secret query items in the path and after it, and the secret values of a JSON, form or
    /// multipart body.
    func secretValues(of request: RequestData) -> Set<String> {
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
        for item in request.query where matches(item.name) { add(item.value) }
        if let mark = request.path.firstIndex(of: "?") {
            let query = request.path[request.path.index(after: mark)...].prefix { $0 != "#" }
            for item in PercentEncoding.queryItems(in: String(query)) where matches(item.name) {
                add(item.value)
            }
        }
        guard let body = request.body?.data, !body.isEmpty else { return values }
        let contentType = headers["Content-Type"] ?? ""
        let type = contentType.lowercased().trimmingCharacters(in: .whitespaces)
        if type.contains("json") || (type.isEmpty && JSONSecretRedactor.looksLikeJSON(body)) {
            redactedJSON(body)?.secrets.forEach(add)
        } else if type.hasPrefix("application/x-www-form-urlencoded") {
            // In a form body `+` is a space; a `+` of the value itself is `%2B`.
            let text = String(decoding: body, as: UTF8.self).replacingOccurrences(of: "+", with: " ")
            for item in PercentEncoding.queryItems(in: text) where matches(item.name) { add(item.value) }
        } else if let boundary = MultipartSecretRedactor.boundary(ofContentType: contentType) {
            redactedMultipart(body, boundary: boundary)?.secrets.forEach(add)
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

    /// A query item's name as written in a URL, decoded: `+` for a space, `%XX` escapes.
    private static func queryName(_ text: Substring) -> String {
        PercentEncoding.unescape(Substring(text.replacingOccurrences(of: "+", with: " ")))
    }
}
