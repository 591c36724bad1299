import Foundation

extension SecretVocabulary {
    /// A body of any kind with its secret values replaced, chosen by its content type: JSON keys
    /// at any depth, form fields and multipart fields. A body without a content type that reads
    /// as JSON is redacted as JSON.
    ///
    /// - Parameters:
    ///   - body: The bytes.
    ///   - contentType: The `Content-Type` the body is sent or received with.
    /// - Returns: The redacted bytes; the bytes unchanged when the type holds no named values;
    ///   `nil` when the type says JSON, form or multipart but the bytes cannot be read as such,
    ///   so the caller shows no content at all.
    func redactedBody(_ body: Data, contentType: String?) -> Data? {
        redactedBodyAndSecrets(body, contentType: contentType)?.data
    }

    /// ``redactedBody(_:contentType:)`` and the values it replaced, so that their echoes can be
    /// hidden elsewhere (see ``secretValues(of:)``).
    func redactedBodyAndSecrets(_ body: Data, contentType: String?) -> RedactedBody? {
        let unchanged = RedactedBody(data: body, secrets: [])
        guard !isEmpty, !body.isEmpty else { return unchanged }
        let type = (contentType ?? "").lowercased()
        if type.contains("json") {
            return redactedJSON(body)
        }
        if type.trimmingCharacters(in: .whitespaces).isEmpty, JSONSecretRedactor.looksLikeJSON(body) {
            // Untyped: redacted as JSON when it reads as JSON, else shown as any untyped body is.
            return redactedJSON(body) ?? unchanged
        }
        if type.hasPrefix("application/x-www-form-urlencoded") {
            guard let text = String(data: body, encoding: .utf8) else { return nil }
            // One pass, as queries are redacted: the values hidden are decoded as the server
            // reads them (in a form `+` is a space, and a `+` is `%2B`).
            var secrets: [String] = []
            let redacted = Self.redactingPieces(
                of: Substring(text), replacement: PercentEncoding.escape(placeholder), plusIsSpace: true,
                hides: matches
            ) { secrets.append($0) }
            return RedactedBody(data: Data(redacted.utf8), secrets: secrets)
        }
        if type.hasPrefix("multipart/") {
            guard let boundary = MultipartSecretRedactor.boundary(ofContentType: contentType ?? "") else {
                return nil
            }
            return redactedMultipart(body, boundary: boundary)
        }
        return unchanged
    }
}
