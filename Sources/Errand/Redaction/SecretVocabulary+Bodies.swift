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
    ///   `nil` when the type says JSON, form or multipart but the bytes cannot be read as such
    ///   (or, untyped, they open like JSON, cannot be read as JSON and name a secret), so the
    ///   caller shows no content at all.
    package func redactedBody(_ body: Data, contentType: String?) -> Data? {
        readableRedaction(of: body, contentType: contentType)?.data
    }

    /// The values of `body` to hide wherever they are echoed (see ``secretValues(of:)``): those
    /// ``redactedBody(_:contentType:)`` replaces, with the redacted bytes.
    ///
    /// A body that cannot be read as its type says is still searched, as far as it can be read
    /// (see ``unreadableBodySecrets(_:contentType:)``): a server that echoes it repeats what was
    /// sent, readable or not. Its `data` is then empty, as nothing of it can be shown.
    package func redactedBodyAndSecrets(_ body: Data, contentType: String?) -> RedactedBody? {
        if let redacted = readableRedaction(of: body, contentType: contentType) { return redacted }
        return RedactedBody(
            data: Data(), secrets: unreadableBodySecrets(body, contentType: contentType).secrets)
    }

    /// A body as a file that keeps what it can of it shows it (cassettes, flight recordings):
    /// ``redactedBodyAndSecrets(_:contentType:)``, the one path log lines take too, with the
    /// text of a body that cannot be read as its type says kept when it can be made safe.
    ///
    /// Such a body keeps its bytes with every secret the lenient read found replaced by the
    /// placeholder, when that read found them all and each is long enough to be searched for
    /// (see ``SecretSpelling/minimumLength``); it is kept as it is when it holds none. Otherwise
    /// the placeholder stands for the whole body. The result is the same when redacted again.
    ///
    /// - Parameters:
    ///   - body: The bytes.
    ///   - contentType: The `Content-Type` the body is sent or received with.
    /// - Returns: The bytes to keep and every value replaced, to be searched for elsewhere.
    package func redactedBodyKeepingText(_ body: Data, contentType: String?) -> RedactedBody {
        if let redacted = readableRedaction(of: body, contentType: contentType) { return redacted }
        let found = unreadableBodySecrets(body, contentType: contentType)
        let secrets = found.secrets.filter { !$0.isEmpty && $0 != placeholder }
        guard found.isComplete else { return RedactedBody(data: Data(placeholder.utf8), secrets: secrets) }
        guard !secrets.isEmpty else { return RedactedBody(data: body, secrets: []) }
        guard secrets.allSatisfy({ $0.count >= SecretSpelling.minimumLength }),
            let text = String(data: body, encoding: .utf8)
        else { return RedactedBody(data: Data(placeholder.utf8), secrets: secrets) }
        let needles = EchoNeedles(Set(secrets))
        let hidden = Data(needles.hidden(in: text, placeholder: placeholder).utf8)
        // A spelling the placeholder itself brings back (a secret inside it) cannot be hidden.
        guard !needles.occur(in: hidden) else {
            return RedactedBody(data: Data(placeholder.utf8), secrets: secrets)
        }
        return RedactedBody(data: hidden, secrets: secrets)
    }

    /// What a lenient read of a body that cannot be read as its type says finds: the values
    /// after secret names, up to where the text breaks, and whether they can be trusted to be
    /// all of its secrets.
    ///
    /// JSON cut short (`{"password": "S3cretPw9", `) gives up every secret it holds, the last one
    /// as far as it was sent. JSON that breaks before its end, a form that is not UTF-8 and a
    /// multipart body without a boundary cannot be trusted when the part not read names a secret.
    ///
    /// - Parameters:
    ///   - body: The bytes, which ``redactedBody(_:contentType:)`` could not read.
    ///   - contentType: The `Content-Type` the body is sent with.
    /// - Returns: The values found, and whether they are all the body's secrets.
    func unreadableBodySecrets(_ body: Data, contentType: String?) -> (secrets: [String], isComplete: Bool) {
        guard isJSON(body, contentType: contentType) else { return ([], !mayName(in: body)) }
        let read = JSONSecretRedactor.secretsAsFarAsReadable(in: body, isSecret: matches)
        guard let unread = read.unreadFrom else { return (read.secrets, true) }
        return (read.secrets, !mayName(in: body[(body.startIndex + unread)...]))
    }

    /// Whether an answer to `request` may repeat a secret of its body that no echo search covers:
    /// the body cannot be read as its type says, and a lenient read of it does not find them all.
    /// A log entry then shows neither the answer's headers nor its body, and an error's
    /// description not its body.
    ///
    /// - Parameter request: The request an answer belongs to.
    /// - Returns: `true` when the answer's body must be withheld.
    package func answersMayEchoUnknownSecrets(of request: RequestData) -> Bool {
        guard !isEmpty, let body = request.body?.data, !body.isEmpty else { return false }
        let type = request.effectiveHeaders["Content-Type"]
        guard readableRedaction(of: body, contentType: type) == nil else { return false }
        return !unreadableBodySecrets(body, contentType: type).isComplete
    }

    /// ``redactedBody(_:contentType:)`` and the values it replaced; `nil` when the body cannot
    /// be read as its type says.
    private func readableRedaction(of body: Data, contentType: String?) -> RedactedBody? {
        let unchanged = RedactedBody(data: body, secrets: [])
        guard !isEmpty, !body.isEmpty else { return unchanged }
        let type = (contentType ?? "").lowercased()
        if type.contains("json") {
            return redactedJSON(body)
        }
        if type.trimmingCharacters(in: .whitespaces).isEmpty, JSONSecretRedactor.looksLikeJSON(body) {
            // Untyped: redacted as JSON when it reads as JSON, else shown as any untyped body is,
            // unless it names a secret (JSON cut short, say), which a reader would take for JSON.
            return redactedJSON(body) ?? (mayName(in: body) ? nil : unchanged)
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

    /// Whether `body` is read as JSON: its type says so, or it has none and opens like JSON.
    private func isJSON(_ body: Data, contentType: String?) -> Bool {
        let type = (contentType ?? "").lowercased()
        if type.contains("json") { return true }
        return type.trimmingCharacters(in: .whitespaces).isEmpty && JSONSecretRedactor.looksLikeJSON(body)
    }
}
