import Errand
import Foundation

extension FlightRecorder {
    /// Applies the configuration's redaction to the entry, in place, and hides every echo of a
    /// value it hid too, before anything is kept.
    ///
    /// Headers, cookies and query items go through `HARRedactor`, as for a cassette. A JSON body
    /// is walked only when ``JSONKeyProbe`` says it may hold a secret key. A value hidden by
    /// name that the same exchange repeats elsewhere, in any spelling of `SecretSpelling`, is
    /// hidden there as well: in a JSON body in place (`HARSecretScan`), in a URL or header by
    /// the placeholder; a body where it cannot be hidden exactly (base64, or not JSON) is
    /// dropped with a note.
    func redact(_ result: inout HAR.Entry) {
        guard configuration.redaction.isEnabled else { return }
        var redactor = freshRedactor

        let requestBody = result.request.postData?.body
        let requestType = result.request.postData?.mimeType ?? result.request.contentType ?? ""
        let skipsRequestBody = requestBody.map { skipsWalk(of: $0, mimeType: requestType) } ?? false
        if skipsRequestBody { result.request.postData?.body = nil }
        redactor.redact(&result.request)
        if skipsRequestBody { result.request.postData?.body = requestBody }

        let responseBody = result.response.content.body
        let skipsResponseBody =
            responseBody.map { skipsWalk(of: $0, mimeType: result.response.content.mimeType) } ?? false
        if skipsResponseBody { result.response.content.body = nil }
        redactor.redact(&result.response)
        if skipsResponseBody { result.response.content.body = responseBody }

        guard !redactor.secrets.isEmpty else { return }
        hideEchoes(of: redactor.secrets, in: &result)
    }

    /// Whether the redaction leaves a body as it is without walking it: JSON in which no
    /// secret key can occur.
    func skipsWalk(of body: Data, mimeType: String) -> Bool {
        Self.isJSON(mimeType) && !probe.mayHoldKey(in: body)
    }

    /// Whether the media type's essence (before any `;`, without spaces) ends in `json`, ignoring
    /// case. Byte by byte: this runs for every exchange.
    static func isJSON(_ mimeType: String) -> Bool {
        // The last four bytes before any `;` and trailing blanks, kept in one number: no array.
        var last4: UInt32 = 0
        var count = 0
        var blankCount = 0
        for byte in mimeType.utf8 {
            if byte == UInt8(ascii: ";") { break }
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                blankCount += 1
                continue
            }
            // Blanks inside the essence count as part of it.
            for _ in 0..<min(blankCount, 4) { last4 = last4 << 8 | UInt32(UInt8(ascii: " ")) }
            count += blankCount
            blankCount = 0
            last4 = last4 << 8 | UInt32(byte | 0x20)
            count += 1
        }
        return count >= 4 && last4 == jsonKey
    }

    /// `json` as four bytes in one number.
    private static let jsonKey = "json".utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }

    private func hideEchoes(of secrets: Set<String>, in entry: inout HAR.Entry) {
        let needles = EchoNeedles(secrets)
        guard !needles.isEmpty else { return }
        let placeholder = configuration.redaction.placeholder
        if needles.occur(in: Self.texts(of: entry)) {
            hideEchoes(needles, inTextsOf: &entry, placeholder: placeholder)
        }
        hideEchoes(needles, inBodiesOf: &entry, secrets: secrets)
    }

    /// The URLs (the request's, a redirect's, the one that answered), header and cookie values,
    /// and error text of an entry: where an echo may be.
    private static func texts(of entry: HAR.Entry) -> [String] {
        var texts = [
            entry.request.url, entry.response.redirectURL, entry.response.finalURL ?? "",
            entry.response.error ?? "",
        ]
        texts += entry.request.headers.map(\.value) + entry.response.headers.map(\.value)
        texts += entry.request.queryString.map(\.value)
        texts += entry.request.cookies.map(\.value) + entry.response.cookies.map(\.value)
        return texts
    }

    private func hideEchoes(_ needles: EchoNeedles, inTextsOf entry: inout HAR.Entry, placeholder: String) {
        func hide(_ text: inout String) {
            text = needles.hidden(in: text, placeholder: placeholder)
        }
        func hide<Item>(_ items: inout [Item], _ value: WritableKeyPath<Item, String>) {
            for index in items.indices { hide(&items[index][keyPath: value]) }
        }
        hide(&entry.request.url)
        hide(&entry.request.headers, \.value)
        hide(&entry.request.queryString, \.value)
        hide(&entry.request.cookies, \.value)
        hide(&entry.response.cookies, \.value)
        hide(&entry.response.headers, \.value)
        hide(&entry.response.redirectURL)
        entry.response.finalURL = entry.response.finalURL.map {
            needles.hidden(in: $0, placeholder: placeholder)
        }
        entry.response.error = entry.response.error.map { needles.hidden(in: $0, placeholder: placeholder) }
    }

    private func hideEchoes(_ needles: EchoNeedles, inBodiesOf entry: inout HAR.Entry, secrets: Set<String>) {
        if let body = entry.response.content.body, needles.occur(in: body) {
            let cleaned = cleanedBody(body, mimeType: entry.response.content.mimeType, secrets: secrets)
            if let cleaned {
                entry.response.content.body = cleaned
            } else {
                var dropped = entry
                Self.dropBodies(
                    of: &dropped, reason: "it repeats a redacted secret that cannot be hidden in place")
                entry.response.content = dropped.response.content
            }
        }
        if let body = entry.request.postData?.body, needles.occur(in: body) {
            let cleaned = cleanedBody(
                body, mimeType: entry.request.postData?.mimeType ?? "", secrets: secrets)
            if let cleaned {
                entry.request.postData?.body = cleaned
            } else {
                var dropped = entry
                Self.dropBodies(
                    of: &dropped, reason: "it repeats a redacted secret that cannot be hidden in place")
                entry.request.postData = dropped.request.postData
            }
        }
    }

    /// A JSON body with every echo hidden in place; `nil` when that is not possible.
    private func cleanedBody(_ body: Data, mimeType: String, secrets: Set<String>) -> Data? {
        guard mimeType.lowercased().contains("json") else { return nil }
        let scan = HARSecretScan.clean(
            body, secrets: secrets, placeholder: configuration.redaction.placeholder)
        return scan.leak == nil ? scan.data : nil
    }
}
