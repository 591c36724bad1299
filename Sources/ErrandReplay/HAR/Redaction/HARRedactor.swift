import Errand
import Foundation

/// Applies a ``HAR/Redaction`` to an archive, one request or response at a time, and keeps
/// every value it replaced in ``secrets``, so a later scan of the written file can prove that
/// none of them reached it.
struct HARRedactor {
    /// Every original value that was replaced, for a post-write scan.
    private(set) var secrets: Set<String> = []

    /// What the redaction hides, worked out once; shared by every copy, so that starting from a
    /// prepared redactor (the flight recorder does, once per exchange) costs one retain.
    private let rules: Rules

    /// The parts of a redactor that never change once it is prepared.
    private final class Rules: Sendable {
        let redaction: HAR.Redaction
        let placeholder: String
        let encodedPlaceholder: String
        /// Whether request cookies are hidden: decided once, not per request.
        let hidesCookies: Bool
        /// Whether response cookies are hidden: decided once, not per response.
        let hidesSetCookies: Bool
        /// Whether the user info of URLs is hidden: decided once, not per URL.
        let hidesUserInfo: Bool
        /// The vocabulary with the redaction's body keys: what bodies are redacted with.
        let bodyVocabulary: SecretVocabulary
        /// Common header names, as servers and clients spell them, that this redaction leaves as
        /// they are: found by one exact lookup instead of a normalised one.
        let plainHeaderNames: Set<String>

        init(_ redaction: HAR.Redaction) {
            self.redaction = redaction
            placeholder = redaction.placeholder
            encodedPlaceholder = PercentEncoding.escape(redaction.placeholder)
            plainHeaderNames = Set(
                HARRedactor.commonHeaderNames.filter { name in
                    !redaction.hidesHeader(name)
                        && !HARRedactor.urlHeaders.contains { HARCaseInsensitive.equal($0, name) }
                })
            hidesCookies = redaction.hidesHeader("Cookie")
            hidesSetCookies = redaction.hidesHeader("Set-Cookie")
            hidesUserInfo = redaction.hidesUserInfo
            var bodyVocabulary = redaction.vocabulary
            for key in redaction.bodyKeys { bodyVocabulary.insert(key) }
            self.bodyVocabulary = bodyVocabulary
        }
    }

    private static let urlHeaders = ["location", "content-location", "referer", ":path"]
    /// Names most exchanges carry, checked against the redaction once in `init`.
    private static let commonHeaderNames = [
        "Accept", "Accept-Encoding", "Accept-Language", "Accept-Ranges", "Age", "Cache-Control",
        "Connection", "Content-Encoding", "Content-Length", "Content-Type", "Date", "ETag", "Etag",
        "Expires", "Keep-Alive", "Last-Modified", "Pragma", "Server", "Transfer-Encoding",
        "User-Agent", "Vary", "Via",
    ].flatMap { [$0, $0.lowercased()] }

    /// Prepares a redactor.
    init(_ redaction: HAR.Redaction) {
        rules = Rules(redaction)
    }

    private var placeholder: String { rules.placeholder }
    private var encodedPlaceholder: String { rules.encodedPlaceholder }

    /// Whether this redaction leaves a header with this name as it is, whatever its value: a
    /// name it does not hide, and not one of the headers that hold a URL (whose query it reads).
    func leavesHeader(named name: String) -> Bool {
        if rules.plainHeaderNames.contains(name) { return true }
        return !rules.redaction.hidesHeader(name)
            && !Self.urlHeaders.contains(where: { HARCaseInsensitive.equal($0, name) })
    }

    /// The archive with every entry's request and response redacted.
    mutating func redact(_ har: HAR) -> HAR {
        guard rules.redaction.isEnabled else { return har }
        var result = har
        for index in result.log.entries.indices {
            redact(&result.log.entries[index].request)
            redact(&result.log.entries[index].response)
        }
        return result
    }

    /// A request with its secret headers, cookies, query items and body keys replaced.
    mutating func redact(_ request: HAR.Request) -> HAR.Request {
        var result = request
        redact(&result)
        return result
    }

    /// Redacts `result` in place, without copying it.
    mutating func redact(_ result: inout HAR.Request) {
        result.url = redact(url: result.url)
        result.headers = redact(headers: result.headers)
        if rules.hidesCookies {
            result.cookies = redact(cookies: result.cookies)
        }
        if !result.queryString.isEmpty {
            result.queryString = result.queryString.map { item in
                var item = item
                item.value = rules.redaction.hidesQueryItem(item.name) ? replace(item.value) : item.value
                return item
            }
        }
        if var postData = result.postData {
            let mimeType = postData.mimeType.isEmpty ? result.contentType ?? "" : postData.mimeType
            let original = postData.body
            postData.body = original.map { redact(body: $0, mimeType: mimeType) }
            if let original, let redacted = postData.body, redacted.count != original.count {
                result.headers = Self.headers(result.headers, describingLength: redacted.count)
                if result.bodySize == original.count { result.bodySize = redacted.count }
            }
            postData.params = postData.params.map { param in
                var param = param
                param.value = param.value.map { rules.redaction.hidesBodyKey(param.name) ? replace($0) : $0 }
                return param
            }
            result.postData = postData
        }
    }

    /// A response with its secret headers, cookies, the credentials of its redirect and final
    /// URLs, and body keys replaced.
    mutating func redact(_ response: HAR.Response) -> HAR.Response {
        var result = response
        redact(&result)
        return result
    }

    /// Redacts `result` in place, without copying it.
    mutating func redact(_ result: inout HAR.Response) {
        result.headers = redact(headers: result.headers)
        if rules.hidesSetCookies {
            result.cookies = redact(cookies: result.cookies)
        }
        result.redirectURL = redact(url: result.redirectURL)
        result.finalURL = result.finalURL.map { redact(url: $0) }
        let original = result.content.body
        result.content.body = original.map { redact(body: $0, mimeType: result.content.mimeType) }
        if let original, let redacted = result.content.body,
            redacted.count != original.count
        {
            result.headers = Self.headers(result.headers, describingLength: redacted.count)
            if result.content.size == original.count { result.content.size = redacted.count }
        }
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
        // Changed in place: most headers keep their value, and the array is copied only if not.
        var result = headers
        for index in result.indices {
            let name = result[index].name
            if rules.plainHeaderNames.contains(name) { continue }
            if rules.redaction.hidesHeader(name) {
                result[index].value = replace(result[index].value)
            } else if Self.urlHeaders.contains(where: { HARCaseInsensitive.equal($0, name) }) {
                let redacted = redact(url: result[index].value)
                if redacted != result[index].value { result[index].value = redacted }
            }
        }
        return result
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

    /// A URL with its user info and the values of secret query items replaced; everything else
    /// byte for byte. The user info's values (see `SecretVocabulary.secretValues(ofUserInfo:)`)
    /// are noted for the scan, so an echo of the password is found too.
    mutating func redact(url: String) -> String {
        guard rules.redaction.isEnabled else { return url }
        var result = url
        if rules.hidesUserInfo, let range = SecretVocabulary.userInfo(inURL: url),
            url[range] != encodedPlaceholder
        {
            for value in SecretVocabulary.secretValues(ofUserInfo: url[range]) { _ = replace(value) }
            result.replaceSubrange(range, with: encodedPlaceholder)
        }
        let parts = HARURLQuery.parts(of: result)
        guard let query = parts.query else { return result }
        let redactedQuery = redact(
            urlEncoded: query, hides: rules.redaction.hidesQueryItem, plusIsSpace: false)
        guard redactedQuery != query else { return result }
        return String(parts.base) + "?" + redactedQuery + (parts.fragment.map { "#" + $0 } ?? "")
    }

    private mutating func redact(
        urlEncoded text: Substring, hides: (String) -> Bool, plusIsSpace: Bool
    ) -> String {
        var hidden: [String] = []
        let result = SecretVocabulary.redactingPieces(
            of: text, replacement: encodedPlaceholder, plusIsSpace: plusIsSpace, hides: hides
        ) { hidden.append($0) }
        for value in hidden { _ = replace(value) }
        return result
    }

    /// A body redacted by the one path log lines take (see
    /// `SecretVocabulary.redactedBodyKeepingText(_:contentType:)`), with the body keys of this
    /// redaction: JSON (typed, or untyped and opening like JSON), form and multipart; a body
    /// that cannot be read as its type says keeps its text with the secrets it is read to hold
    /// replaced, or is withheld whole.
    private mutating func redact(body: Data, mimeType: String) -> Data {
        guard rules.redaction.isEnabled, !body.isEmpty else { return body }
        let result = rules.bodyVocabulary.redactedBodyKeepingText(body, contentType: mimeType)
        for secret in result.secrets {
            _ = replace(secret)
        }
        return result.data
    }
}
