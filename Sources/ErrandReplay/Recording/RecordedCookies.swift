import Foundation

/// Fills HAR's `cookies` lists from the `Cookie` and `Set-Cookie` headers, as browsers do, so a
/// cassette reads the same in a HAR viewer. Redaction hides both the headers and these values.
enum RecordedCookies {
    /// The cookies of one `Cookie` request header: `a=1; b=2`.
    static func cookieHeader(_ value: String) -> [HAR.Cookie] {
        value.split(separator: ";").compactMap { pair in
            let (name, value) = split(pair)
            return name.isEmpty ? nil : HAR.Cookie(name: name, value: value)
        }
    }

    /// The cookie of one `Set-Cookie` response header: `k=v; Path=/; HttpOnly`.
    static func setCookie(_ value: String) -> HAR.Cookie? {
        var parts = value.split(separator: ";")[...]
        guard let first = parts.popFirst() else { return nil }
        let (name, cookieValue) = split(first)
        guard !name.isEmpty else { return nil }
        var cookie = HAR.Cookie(name: name, value: cookieValue)
        for attribute in parts {
            let (key, attributeValue) = split(attribute)
            switch HARCaseInsensitive.key(key) {
            case "path": cookie.path = attributeValue
            case "domain": cookie.domain = attributeValue
            case "expires": cookie.expires = attributeValue
            case "httponly": cookie.httpOnly = true
            case "secure": cookie.secure = true
            default: continue
            }
        }
        return cookie
    }

    private static func split(_ pair: Substring) -> (String, String) {
        let trimmed = pair.trimmingCharacters(in: .whitespaces)
        guard let equals = trimmed.firstIndex(of: "=") else { return (trimmed, "") }
        return (
            String(trimmed[..<equals]).trimmingCharacters(in: .whitespaces),
            String(trimmed[trimmed.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
        )
    }
}

/// The reason phrases written as `statusText`, since URLSession does not report the one sent.
enum HTTPReason {
    /// The standard phrase for a status code, or an empty string for an unusual one.
    static func phrase(for status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 418: "I'm a Teapot"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: ""
        }
    }
}
