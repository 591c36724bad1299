import Errand
import Foundation

extension FlightRecorder {
    /// An exchange in which the redaction finds nothing to hide, kept as it came: it becomes a
    /// HAR entry only when the recording is written, so keeping it builds nothing.
    ///
    /// Made only by ``plainExchange(_:response:startedDateTime:duration:)``, which checks every
    /// place the redaction looks; it holds the request as the recorder saw it and the response's
    /// status, headers and body, and nothing else of either.
    struct PlainExchange: Sendable {
        let request: RequestData
        let url: String
        let response: NetworkResponse
        let startedDateTime: Date
        let duration: Duration

        /// The exchange as the HAR entry an eager recording would have kept.
        var entry: HAR.Entry {
            Recording.entry(
                harRequest: Recording.harRequest(for: request, url: url), response: response,
                startedDateTime: startedDateTime, duration: duration)
        }

        /// About how many bytes it holds, counted as ``FlightRecorder/weight(of:)`` counts an entry.
        var weight: Int {
            var total = 512 + url.utf8.count
            for field in request.effectiveHeaders {
                total += field.name.utf8.count + field.value.utf8.count + 16
            }
            for field in response.headers { total += field.name.utf8.count + field.value.utf8.count + 16 }
            return total + (request.body?.data?.count ?? 0) + response.body.count
        }
    }

    /// The exchange as a ``PlainExchange`` when the redaction would leave every part of it as it
    /// is; `nil` when anything may need hiding, or when its URL is not one resolved once.
    ///
    /// Conservative by design: a query or a user info, an answer from another URL than the
    /// request's, a header the redaction hides or reads (cookies, `Authorization`, `Location`,
    /// …), a body that is not JSON, or a JSON body in which ``JSONKeyProbe`` cannot rule out a
    /// secret key, each sends the exchange the eager way.
    func plainExchange(
        _ request: RequestData, response: NetworkResponse, startedDateTime: Date, duration: Duration
    ) -> PlainExchange? {
        guard let url = resolvedURLs.url(of: request) else { return nil }
        // An answer from another URL (a redirect's) is recorded, and redacted, the eager way.
        if let answered = response.url, answered.absoluteString != url { return nil }
        if configuration.redaction.isEnabled {
            let headers = request.effectiveHeaders
            for field in headers where !freshRedactor.leavesHeader(named: field.name) { return nil }
            for field in response.headers where !freshRedactor.leavesHeader(named: field.name) { return nil }
            if let body = request.body {
                guard let data = body.data,
                    data.isEmpty || skipsWalk(of: data, mimeType: headers["Content-Type"] ?? body.contentType)
                else { return nil }
            }
            if !response.body.isEmpty,
                !skipsWalk(of: response.body, mimeType: response.headers["Content-Type"] ?? "")
            {
                return nil
            }
        }
        let kept = NetworkResponse(
            statusCode: response.statusCode, headers: response.headers, body: response.body)
        return PlainExchange(
            request: request, url: url, response: kept, startedDateTime: startedDateTime, duration: duration)
    }
}
