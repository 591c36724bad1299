import Foundation

/// Applies a ``HAR/Redaction`` to an archive, one request or response at a time, and keeps
/// every value it replaced in ``secrets``, so a later scan of the written file can prove that
/// none of them reached it.
struct HARRedactor {
    /// Every original value that was replaced, for a post-write scan.
    private(set) var secrets: Set<String> = []

    private let placeholder: String
    private let encodedPlaceholder: String
    private let headerNames: Set<String>
    private let queryItemNames: Set<String>
    private let bodyKeys: Set<String>
    private static let urlHeaders: Set<String> = ["location", "content-location", "referer", ":path"]

    /// Prepares a redactor; names are compared ignoring ASCII case.
    init(_ redaction: HAR.Redaction) {
        placeholder = redaction.placeholder
        encodedPlaceholder = HARURLQuery.percentEncoded(redaction.placeholder)
        headerNames = Set(redaction.headerNames.map(HARCaseInsensitive.key))
        queryItemNames = Set(redaction.queryItemNames.map(HARCaseInsensitive.key))
        bodyKeys = Set(redaction.bodyKeys.map(HARCaseInsensitive.key))
    }

    /// The archive with every entry's request and response redacted.
    mutating func redact(_ har: HAR) -> HAR {
        guard !(headerNames.isEmpty && queryItemNames.isEmpty && bodyKeys.isEmpty) else { return har }
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
        if headerNames.contains("cookie") {
            result.cookies = redact(cookies: request.cookies)
        }
        result.queryString = request.queryString.map { item in
            var item = item
            item.value = redact(value: item.value, named: item.name, in: queryItemNames)
            return item
        }
        if var postData = request.postData {
            let mimeType = postData.mimeType.isEmpty ? request.contentType ?? "" : postData.mimeType
            postData.body = postData.body.map { redact(body: $0, mimeType: mimeType) }
            postData.params = postData.params.map { param in
                var param = param
                param.value = param.value.map { redact(value: $0, named: param.name, in: bodyKeys) }
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
        if headerNames.contains("set-cookie") {
            result.cookies = redact(cookies: response.cookies)
        }
        result.redirectURL = redact(url: response.redirectURL)
        result.content.body = response.content.body.map {
            redact(body: $0, mimeType: response.content.mimeType)
        }
        return result
    }

    private mutating func redact(headers: [HAR.Header]) -> [HAR.Header] {
        headers.map { header in
            var header = header
            let name = HARCaseInsensitive.key(header.name)
            if headerNames.contains(name) {
                header.value = replace(header.value)
            } else if Self.urlHeaders.contains(name) {
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

    private mutating func redact(value: String, named name: String, in names: Set<String>) -> String {
        names.contains(HARCaseInsensitive.key(name)) ? replace(value) : value
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
        guard !queryItemNames.isEmpty else { return url }
        let parts = HARURLQuery.parts(of: url)
        guard let query = parts.query else { return url }
        let redactedQuery = redact(urlEncoded: query, names: queryItemNames, plusIsSpace: false)
        guard redactedQuery != query else { return url }
        return String(parts.base) + "?" + redactedQuery + (parts.fragment.map { "#" + $0 } ?? "")
    }

    private mutating func redact(urlEncoded text: Substring, names: Set<String>, plusIsSpace: Bool) -> String
    {
        let pieces = text.split(separator: "&", omittingEmptySubsequences: false).map { piece -> String in
            let split = HARURLQuery.nameAndValue(of: piece)
            let name = HARURLQuery.percentDecoded(split.name, plusIsSpace: plusIsSpace)
            guard names.contains(HARCaseInsensitive.key(name)), let rawValue = split.value,
                rawValue != encodedPlaceholder
            else { return String(piece) }
            _ = replace(HARURLQuery.percentDecoded(rawValue, plusIsSpace: plusIsSpace))
            return String(split.name) + "=" + encodedPlaceholder
        }
        return pieces.joined(separator: "&")
    }

    private mutating func redact(body: Data, mimeType: String) -> Data {
        guard !bodyKeys.isEmpty, !body.isEmpty else { return body }
        let essence = HARCaseInsensitive.key(mimeType.split(separator: ";").first.map(String.init) ?? "")
            .trimmingCharacters(in: .whitespaces)
        if essence.hasSuffix("json") {
            return redact(jsonBody: body)
        }
        if essence == "application/x-www-form-urlencoded", let text = HARBodyText.utf8String(body) {
            return Data(redact(urlEncoded: Substring(text), names: bodyKeys, plusIsSpace: true).utf8)
        }
        return body
    }

    private mutating func redact(jsonBody body: Data) -> Data {
        guard let result = HARJSONKeyRedactor.redact(body, keys: bodyKeys, placeholder: placeholder) else {
            // Not JSON after all: keys cannot be found, so the body is kept as it is.
            return body
        }
        for value in result.replacedValues {
            if let parsed = try? JSONSerialization.jsonObject(with: value, options: [.fragmentsAllowed]) {
                collectSecrets(in: parsed)
            } else {
                _ = replace(String(decoding: value, as: UTF8.self))
            }
        }
        return result.data
    }

    private mutating func collectSecrets(in value: Any) {
        if let text = value as? String {
            _ = replace(text)
        } else if let object = value as? [String: Any] {
            for member in object.values {
                collectSecrets(in: member)
            }
        } else if let array = value as? [Any] {
            for element in array {
                collectSecrets(in: element)
            }
        } else if !(value is NSNull) {
            _ = replace("\(value)")
        }
    }
}
