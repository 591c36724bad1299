import Errand
import Foundation

/// Applies a ``HAR/Redaction`` to an archive, one request or response at a time, and keeps
/// every value it replaced in ``secrets``, so a later scan of the written file can prove that
/// none of them reached it.
struct HARRedactor {
    /// Every original value that was replaced, for a post-write scan.
    private(set) var secrets: Set<String> = []

    /// The redaction applied; names match in any case and spelling.
    let redaction: HAR.Redaction
    private let placeholder: String
    private let encodedPlaceholder: String
    private static let urlHeaders: Set<String> = ["location", "content-location", "referer", ":path"]

    /// Prepares a redactor.
    init(_ redaction: HAR.Redaction) {
        self.redaction = redaction
        placeholder = redaction.placeholder
        encodedPlaceholder = HARURLQuery.percentEncoded(redaction.placeholder)
    }

    /// The archive with every entry's request and response redacted.
    mutating func redact(_ har: HAR) -> HAR {
        guard redaction.isEnabled else { return har }
        var result = har
        for index in result.log.entries.indices {
            result.log.entries[index].request = redact(result.log.entries[index].request)
            result.log.entries[index].response = redact(result.log.entries[index].response)
        }
        return result
    }

    /// A request with its secret headers, cookies, query items and body keys replaced.
    mutating func redact(_ request: HAR.Request) -> HAR.Request {
        var result = request
        result.url = redact(url: request.url)
        result.headers = redact(headers: request.headers)
        if redaction.hidesHeader("Cookie") {
            result.cookies = redact(cookies: request.cookies)
        }
        result.queryString = request.queryString.map { item in
            var item = item
            item.value = redaction.hidesQueryItem(item.name) ? replace(item.value) : item.value
            return item
        }
        if var postData = request.postData {
            let mimeType = postData.mimeType.isEmpty ? request.contentType ?? "" : postData.mimeType
            let original = postData.body
            postData.body = original.map { redact(body: $0, mimeType: mimeType) }
            if let original, let redacted = postData.body, redacted.count != original.count {
                result.headers = Self.headers(result.headers, describingLength: redacted.count)
                if result.bodySize == original.count { result.bodySize = redacted.count }
            }
            postData.params = postData.params.map { param in
                var param = param
                param.value = param.value.map { redaction.hidesBodyKey(param.name) ? replace($0) : $0 }
                return param
            }
            result.postData = postData
        }
        return result
    }

    /// A response with its secret headers, cookies, redirect query items and body keys replaced.
    mutating func redact(_ response: HAR.Response) -> HAR.Response {
        var result = response
        result.headers = redact(headers: response.headers)
        if redaction.hidesHeader("Set-Cookie") {
            result.cookies = redact(cookies: response.cookies)
        }
        result.redirectURL = redact(url: response.redirectURL)
        result.content.body = response.content.body.map {
            redact(body: $0, mimeType: response.content.mimeType)
        }
        if let original = response.content.body, let redacted = result.content.body,
            redacted.count != original.count
        {
            result.headers = Self.headers(result.headers, describingLength: redacted.count)
            if result.content.size == original.count { result.content.size = redacted.count }
        }
        return result
    }

    /// `headers` with every `Content-Length` giving `length`: a placeholder rarely has the
    /// secret's length, and a replayed answer must not announce bytes that are not there.
    private static func headers(_ headers: [HAR.Header], describingLength length: Int) -> [HAR.Header] {
        headers.map { header in
            guard header.hasName("Content-Length") else { return header }
            var header = header
            header.value = String(length)
            return header
        }
    }

    private mutating func redact(headers: [HAR.Header]) -> [HAR.Header] {
        headers.map { header in
            var header = header
            if redaction.hidesHeader(header.name) {
                header.value = replace(header.value)
            } else if Self.urlHeaders.contains(HARCaseInsensitive.key(header.name)) {
                header.value = redact(url: header.value)
            }
            return header
        }
    }

    private mutating func redact(cookies: [HAR.Cookie]) -> [HAR.Cookie] {
        cookies.map { cookie in
            var cookie = cookie
            cookie.value = replace(cookie.value)
            return cookie
        }
    }

    /// The placeholder, after noting the value it replaces.
    private mutating func replace(_ value: String) -> String {
        if !value.isEmpty, value != placeholder {
            secrets.insert(value)
        }
        return placeholder
    }

    /// A URL with the values of secret query items replaced; everything else byte for byte.
    mutating func redact(url: String) -> String {
        guard redaction.isEnabled else { return url }
        let parts = HARURLQuery.parts(of: url)
        guard let query = parts.query else { return url }
        let redactedQuery = redact(urlEncoded: query, hides: redaction.hidesQueryItem, plusIsSpace: false)
        guard redactedQuery != query else { return url }
        return String(parts.base) + "?" + redactedQuery + (parts.fragment.map { "#" + $0 } ?? "")
    }

    private mutating func redact(
        urlEncoded text: Substring, hides: (String) -> Bool, plusIsSpace: Bool
    ) -> String {
        let pieces = text.split(separator: "&", omittingEmptySubsequences: false).map { piece -> String in
            let split = HARURLQuery.nameAndValue(of: piece)
            let name = HARURLQuery.percentDecoded(split.name, plusIsSpace: plusIsSpace)
            guard hides(name), let rawValue = split.value,
                rawValue != encodedPlaceholder
            else { return String(piece) }
            _ = replace(HARURLQuery.percentDecoded(rawValue, plusIsSpace: plusIsSpace))
            return String(split.name) + "=" + encodedPlaceholder
        }
        return pieces.joined(separator: "&")
    }

    private mutating func redact(body: Data, mimeType: String) -> Data {
        guard redaction.isEnabled, !body.isEmpty else { return body }
        let essence = HARCaseInsensitive.key(mimeType.split(separator: ";").first.map(String.init) ?? "")
            .trimmingCharacters(in: .whitespaces)
        let hides = redaction.hidesBodyKey
        let result: SecretVocabulary.RedactedBody?
        if essence.hasSuffix("json") {
            // Not JSON after all (nil): keys cannot be found, so the body is kept as it is.
            result = JSONSecretRedactor.redact(body, placeholder: placeholder, isSecret: hides)
        } else if essence == "application/x-www-form-urlencoded", let text = HARBodyText.utf8String(body) {
            return Data(redact(urlEncoded: Substring(text), hides: hides, plusIsSpace: true).utf8)
        } else if let boundary = MultipartSecretRedactor.boundary(ofContentType: mimeType) {
            result = MultipartSecretRedactor.redact(
                body, boundary: boundary, placeholder: placeholder, isSecret: hides)
        } else {
            result = nil
        }
        guard let result else { return body }
        for secret in result.secrets {
            _ = replace(secret)
        }
        return result.data
    }
}
