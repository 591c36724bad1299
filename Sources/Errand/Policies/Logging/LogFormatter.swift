import Foundation

/// Writes the text of a logging policy's entries, redacting before anything is written.
struct LogFormatter: Sendable {
    let level: LogLevel
    let vocabulary: SecretVocabulary
    let bodyLimit: Int

    /// The spellings of `request`'s secret values, to hide wherever the request's or its
    /// answer's headers and bodies repeat them; `nil` at ``LogLevel/basic``, which shows neither.
    func echoes(of request: RequestData) -> EchoNeedles? {
        guard level >= .headers else { return nil }
        let needles = EchoNeedles(vocabulary.secretValues(of: request))
        return needles.isEmpty ? nil : needles
    }

    /// `[errand #12] → GET /x?page=2`, and the headers and body at higher levels.
    func requestText(_ request: RequestData, id: Int, hiding echoes: EchoNeedles?) -> String {
        var text = "\(Self.prefix(id)) → \(target(of: request))"
        if let data = request.body?.data, !data.isEmpty { text += " \(data.count) B" }
        guard level >= .headers else { return text }
        appendHeaders(request.effectiveHeaders, to: &text)
        if level >= .body, let body = request.body {
            appendBody(body.data ?? Data(), contentType: request.effectiveHeaders["Content-Type"], to: &text)
        }
        return hiding(echoes, in: text)
    }

    /// `[errand #12] ← 200 GET /x 12.3 ms 411 B`, and the headers and body at higher levels.
    func responseText(
        _ response: NetworkResponse, request: RequestData, id: Int, elapsed: Duration,
        hiding echoes: EchoNeedles?
    ) -> String {
        var text =
            "\(Self.prefix(id)) ← \(response.statusCode) \(target(of: request)) \(Self.milliseconds(elapsed))"
            + " \(response.body.count) B"
        guard level >= .headers else { return text }
        appendHeaders(response.headers, to: &text)
        if level >= .body {
            appendBody(response.body, contentType: response.headers["Content-Type"], to: &text)
        }
        return hiding(echoes, in: text)
    }

    /// `[errand #12] ← timedOut GET /x 30000.0 ms`, with the status when there was a response.
    func failureText(
        _ error: NetworkError, request: RequestData, id: Int, elapsed: Duration, hiding echoes: EchoNeedles?
    ) -> String {
        let status = error.statusCode.map { " \($0)" } ?? ""
        var text =
            "\(Self.prefix(id)) ← \(error.code)\(status) \(target(of: request)) \(Self.milliseconds(elapsed))"
        if level >= .headers, let response = error.response {
            appendHeaders(response.headers, to: &text)
            if level >= .body {
                appendBody(response.body, contentType: response.headers["Content-Type"], to: &text)
            }
        }
        return hiding(echoes, in: text)
    }

    /// The method and the path with its query, secret query values redacted (in the path too).
    private func target(of request: RequestData) -> String {
        vocabulary.redactedTarget(of: request)
    }

    /// `text` with every spelling of the request's secrets replaced: a server that echoes the
    /// request (`/anything`, a validation error quoting the input) repeats them as plain values,
    /// under names that are not secret.
    private func hiding(_ echoes: EchoNeedles?, in text: String) -> String {
        echoes.map { $0.hidden(in: text, placeholder: vocabulary.placeholder) } ?? text
    }

    private func appendHeaders(_ headers: HTTPHeaders, to text: inout String) {
        for header in vocabulary.redacted(headers) {
            text += "\n  \(header.name): \(header.value)"
        }
    }

    /// The body as text, truncated to `bodyLimit` bytes; binary or unreadable bodies as their
    /// size and type only.
    private func appendBody(_ data: Data, contentType: String?, to text: inout String) {
        guard !data.isEmpty else { return }
        let type = contentType ?? "no type"
        guard let shown = vocabulary.redactedBody(data, contentType: contentType) else {
            text += "\n  <\(data.count) B \(type), not shown: secrets could not be redacted>"
            return
        }
        guard String(data: shown, encoding: .utf8) != nil, !shown.contains(0) else {
            text += "\n  <binary \(data.count) B \(type)>"
            return
        }
        let prefix = shown.prefix(bodyLimit)
        text += "\n  " + String(decoding: prefix, as: UTF8.self)
        if shown.count > prefix.count { text += "… (\(shown.count - prefix.count) B more)" }
    }

    private static func prefix(_ id: Int) -> String { "[errand #\(id)]" }

    /// `12.3 ms`.
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let tenths = (Double(seconds) * 10_000 + Double(attoseconds) / 1e14).rounded()
        return "\(Int(tenths) / 10).\(abs(Int(tenths) % 10)) ms"
    }
}
