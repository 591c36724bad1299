import Errand
import Foundation

/// Writes the text of a logging policy's entries, redacting before anything is written.
///
/// Every entry is put together by ``LogEntryText``, which escapes each piece, so a path, a
/// method, a header or a body can neither start a line of its own nor run a terminal escape.
struct LogFormatter: Sendable {
    let level: LogLevel
    let vocabulary: SecretVocabulary
    let bodyLimit: Int

    /// What the request's entries hide of it in its answer.
    struct Echoes: Sendable {
        /// The request's secret values.
        let secrets: Set<String>
        /// The spellings of the request's secret values; `nil` when it has none.
        let needles: EchoNeedles?
        /// Whether the answer's headers and body are withheld: the request's body could not be
        /// read to find all its secrets, and the answer may repeat them (see
        /// `SecretVocabulary.answersMayEchoUnknownSecrets(of:)`).
        let withholdsAnswer: Bool
    }

    /// The spellings of `request`'s secret values, to hide wherever the request's or its
    /// answer's headers and bodies repeat them; nothing at ``LogLevel/basic``, which shows neither.
    func echoes(of request: RequestData) -> Echoes {
        guard level >= .headers else { return Echoes(secrets: [], needles: nil, withholdsAnswer: false) }
        let secrets = vocabulary.secretValues(of: request)
        let needles = EchoNeedles(secrets)
        return Echoes(
            secrets: secrets, needles: needles.isEmpty ? nil : needles,
            withholdsAnswer: vocabulary.answersMayEchoUnknownSecrets(of: request))
    }

    /// `[errand #12] → GET /x?page=2`, and the headers and body at higher levels.
    func requestText(_ request: RequestData, id: Int, hiding echoes: Echoes) -> String {
        var entry = entry(id, echoes)
        entry.add("→")
        entry.add(target(of: request))
        if let data = request.body?.data, !data.isEmpty { entry.add("\(data.count) B") }
        guard level >= .headers else { return entry.text }
        addHeaders(request.effectiveHeaders, to: &entry)
        if level >= .body, let body = request.body {
            addBody(body.data ?? Data(), contentType: request.effectiveHeaders["Content-Type"], to: &entry)
        }
        return entry.text
    }

    /// `[errand #12] refused GET /x: The method "G T" is not a valid HTTP method: …`, the one
    /// entry of a request that validation refused, and so was never sent.
    func refusalText(_ error: NetworkError, request: RequestData, id: Int, hiding echoes: Echoes) -> String {
        var entry = entry(id, echoes)
        entry.add("refused")
        entry.add(target(of: request) + ":")
        entry.add(error.message)
        return entry.text
    }

    /// `[errand #12] ← 200 GET /x 12.3 ms 411 B`, and the headers and body at higher levels.
    func responseText(
        _ response: NetworkResponse, request: RequestData, id: Int, elapsed: Duration, hiding echoes: Echoes
    ) -> String {
        var entry = answerEntry(id, echoes, answeredFrom: response.url)
        entry.add("←")
        entry.add("\(response.statusCode)")
        entry.add(target(of: request))
        entry.add(Self.milliseconds(elapsed))
        entry.add("\(response.body.count) B")
        addAnswer(response, to: &entry, withholding: echoes.withholdsAnswer)
        return entry.text
    }

    /// `[errand #12] ← timedOut GET /x 30000.0 ms`, with the status when there was a response.
    func failureText(
        _ error: NetworkError, request: RequestData, id: Int, elapsed: Duration, hiding echoes: Echoes
    ) -> String {
        var entry = answerEntry(id, echoes, answeredFrom: error.response?.url)
        entry.add("←")
        entry.add(error.code.rawValue)
        if let status = error.statusCode { entry.add("\(status)") }
        entry.add(target(of: request))
        entry.add(Self.milliseconds(elapsed))
        if let response = error.response {
            addAnswer(response, to: &entry, withholding: echoes.withholdsAnswer)
        }
        return entry.text
    }

    private func entry(_ id: Int, _ echoes: Echoes) -> LogEntryText {
        LogEntryText(id: id, hiding: echoes.needles, placeholder: vocabulary.placeholder)
    }

    /// The entry of an answer: it hides the request's secrets and those of the URL that
    /// answered (its secret query values, `key` included, and its user info), which a server
    /// that echoes its own URL repeats after a redirect, as flight recordings and cassettes hide
    /// them.
    private func answerEntry(_ id: Int, _ echoes: Echoes, answeredFrom url: URL?) -> LogEntryText {
        guard level >= .headers, let url else { return entry(id, echoes) }
        let answering = vocabulary.secretValues(ofURL: url.absoluteString)
        guard !answering.isSubset(of: echoes.secrets) else { return entry(id, echoes) }
        let needles = EchoNeedles(echoes.secrets.union(answering))
        return LogEntryText(
            id: id, hiding: needles.isEmpty ? nil : needles, placeholder: vocabulary.placeholder)
    }

    /// The method and the path with its query, secret query values redacted (in the path too).
    private func target(of request: RequestData) -> String {
        vocabulary.redactedTarget(of: request)
    }

    /// A response's headers and body, at the levels that show them, or a note that they are
    /// withheld.
    private func addAnswer(_ response: NetworkResponse, to entry: inout LogEntryText, withholding: Bool) {
        guard level >= .headers else { return }
        guard !withholding else {
            let body = level >= .body && !response.body.isEmpty ? " and \(response.body.count) B body" : ""
            entry.addLine(
                "<headers\(body) not shown: they may repeat secrets of the request's body, "
                    + "which could not be read to find them>")
            return
        }
        addHeaders(response.headers, to: &entry)
        if level >= .body {
            addBody(response.body, contentType: response.headers["Content-Type"], to: &entry)
        }
    }

    private func addHeaders(_ headers: HTTPHeaders, to entry: inout LogEntryText) {
        for header in vocabulary.redacted(headers) {
            entry.addLine("\(header.name): \(header.value)")
        }
    }

    /// The body as text, truncated to `bodyLimit` bytes; binary or unreadable bodies as their
    /// size and type only.
    private func addBody(_ data: Data, contentType: String?, to entry: inout LogEntryText) {
        guard !data.isEmpty else { return }
        let type = contentType ?? "no type"
        guard let shown = vocabulary.redactedBody(data, contentType: contentType) else {
            entry.addLine("<\(data.count) B \(type), not shown: secrets could not be redacted>")
            return
        }
        guard let text = String(data: shown, encoding: .utf8), !shown.contains(0) else {
            entry.addLine("<binary \(data.count) B \(type)>")
            return
        }
        entry.addBlock(text, limit: bodyLimit)
    }

    /// `12.3 ms`, for any duration a clock gives: negative, or too long for an `Int` of tenths.
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let tenths = (Double(seconds) * 10_000 + Double(attoseconds) / 1e14).rounded()
        // Past 2^53 tenths a `Double` no longer holds every whole number: written as it is.
        guard let whole = Int64(exactly: tenths), whole.magnitude < 1 << 53 else {
            return "\(tenths / 10) ms"
        }
        let sign = whole < 0 ? "-" : ""
        return "\(sign)\(whole.magnitude / 10).\(whole.magnitude % 10) ms"
    }
}
