import Foundation

@testable import Errand
@testable import ErrandPolicies

/// The cache's reading of response and request headers: `Cache-Control`, HTTP dates, `Age`,
/// `Expires`, `Vary`, and the freshness computed from them.
enum CacheHeadersFuzz {
    static func run(_ input: FuzzInput) {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var headers = HTTPHeaders()
        for line in input.text.split(whereSeparator: \.isNewline) {
            let pair = line.split(separator: ":", maxSplits: 1)
            guard pair.count == 2 else {
                _ = HTTPDate.parse(String(line), now: now)
                continue
            }
            headers.add(String(pair[0]), String(pair[1]))
        }
        let control = CacheControl(headers)
        _ = control.seconds("max-age")
        _ = control.seconds("s-maxage")
        for field in headers {
            if let date = HTTPDate.parse(field.value, now: now) { _ = HTTPDate.format(date) }
            _ = CacheControl.deltaSeconds(field.value)
        }
        // 203 is heuristically cacheable, so a Last-Modified reaches the heuristic lifetime too.
        _ = CacheFreshness.Facts(statusCode: 203, headers: headers, responseTime: now).lifetime
        let request = RequestData.get("https://example.com/a").header(
            "Cache-Control", headers["Cache-Control"] ?? "")
        let response = NetworkResponse(statusCode: 200, headers: headers, request: request)
        let entry = CachedResponse(
            key: "https://example.com/a", request: request, identity: .anonymous, response: response,
            requestTime: now, responseTime: now)
        let age = CacheFreshness.currentAge(of: entry, now: now.addingTimeInterval(30))
        _ = CacheFreshness.isFresh(entry, for: control, age: age)
        _ = entry.matches(request)
        _ = CachedResponse.varyNames(in: headers)
        _ = RetryAfter.delay(in: response, now: now)
    }
}
