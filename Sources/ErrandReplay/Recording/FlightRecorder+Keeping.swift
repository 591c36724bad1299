import Errand
import Foundation

extension FlightRecorder {
    /// Turns one finished exchange into a HAR entry, redacts it, fits it to the byte budget and
    /// keeps it. Runs on the thread that finished the exchange, before its callback.
    ///
    /// - Parameters:
    ///   - outcome: The response, or the failure.
    func record(
        _ request: RequestData, _ outcome: Result<NetworkResponse, NetworkError>, startedDateTime: Date,
        duration: Duration
    ) {
        let response: NetworkResponse
        switch outcome {
        case .success(let answer):
            response = answer
        case .failure(let error):
            keepFailure(error, of: request, startedDateTime: startedDateTime, duration: duration)
            return
        }
        if let exchange = plainExchange(
            request, response: response, startedDateTime: startedDateTime, duration: duration)
        {
            let bytes = exchange.weight
            if bytes <= configuration.maximumBytes {
                keep(.plain(exchange), bytes: bytes)
                return
            }
        }
        keepRedacted(
            Recording.entry(
                harRequest: harRequest(for: request, answeredBy: response), response: response,
                startedDateTime: startedDateTime, duration: duration))
    }

    /// Keeps a failed exchange, with the response that came with the failure, if any.
    private func keepFailure(
        _ error: NetworkError, of request: RequestData, startedDateTime: Date, duration: Duration
    ) {
        let harRequest = harRequest(for: request, answeredBy: error.response, failure: error)
        var entry: HAR.Entry
        if let answer = error.response {
            entry = Recording.entry(
                harRequest: harRequest, response: answer, startedDateTime: startedDateTime, duration: duration
            )
        } else {
            entry =
                Recording(
                    harRequest: harRequest, failure: error, startedDateTime: startedDateTime,
                    duration: duration
                ).entry
        }
        entry.response.error = "\(error.code.rawValue): \(error.message)"
        keepRedacted(entry)
    }

    /// Redacts the entry, fits it to the byte budget and keeps it.
    ///
    /// The entry is changed in place and handed on as its last use: an entry copied is some
    /// twenty retains and as many releases, on every exchange.
    private func keepRedacted(_ entry: consuming HAR.Entry) {
        redact(&entry)
        var bytes = Self.weight(of: entry)
        if bytes > configuration.maximumBytes {
            Self.dropBodies(of: &entry, reason: "over the flight recorder's byte budget")
            bytes = Self.weight(of: entry)
            guard bytes <= configuration.maximumBytes else { return }
        }
        keep(.entry(entry), bytes: bytes)
    }

    /// The request in HAR form, against the base URL, or the origin its answer came from, or the
    /// origin of the URL its failure names, or (when none makes a URL) with the path as it was
    /// given.
    private func harRequest(
        for request: RequestData, answeredBy answer: NetworkResponse?, failure: NetworkError? = nil
    ) -> HAR.Request {
        if let url = resolvedURLs.url(of: request) { return Recording.harRequest(for: request, url: url) }
        if let resolved = try? Recording.harRequest(resolving: request, against: configuration.baseURL) {
            return resolved
        }
        // A transport failure has no answer, but its cause names the URL that failed.
        let failedURL = (failure?.underlyingError as? URLError)?.failingURL
        if let origin = (answer?.url ?? failedURL).flatMap(Self.origin),
            let resolved = try? Recording.harRequest(resolving: request, against: origin)
        {
            return resolved
        }
        let headers = request.effectiveHeaders
        return HAR.Request(
            method: request.method.rawValue, url: request.path,
            headers: headers.map { HAR.Header(name: $0.name, value: $0.value) },
            postData: request.body.map {
                HAR.PostData(mimeType: headers["Content-Type"] ?? $0.contentType, body: $0.data ?? Data())
            })
    }

    private static func origin(of url: URL) -> URL? {
        guard let scheme = url.scheme, let host = url.host else { return nil }
        let port = url.port.map { ":\($0)" } ?? ""
        return URL(string: "\(scheme)://\(host.contains(":") ? "[\(host)]" : host)\(port)")
    }

    /// About how many bytes an entry holds in memory: its URL, headers, cookies and bodies, and
    /// a fixed allowance for the rest.
    static func weight(of entry: HAR.Entry) -> Int {
        let request = entry.request
        let response = entry.response
        var total =
            512 + request.url.utf8.count + (response.error?.utf8.count ?? 0)
            + (response.finalURL?.utf8.count ?? 0)
        for header in request.headers { total += header.name.utf8.count + header.value.utf8.count + 16 }
        for header in response.headers { total += header.name.utf8.count + header.value.utf8.count + 16 }
        total += request.postData?.body?.count ?? 0
        total += response.content.body?.count ?? 0
        return total
    }

    /// Drops both bodies, saying in their `comment` how large they were and why they are gone.
    static func dropBodies(of entry: inout HAR.Entry, reason: String) {
        if let body = entry.response.content.body {
            entry.response.content.body = nil
            entry.response.content.size = body.count
            entry.response.content.comment = "Body of \(body.count) bytes not kept: \(reason)."
        }
        if let body = entry.request.postData?.body {
            entry.request.postData?.body = nil
            entry.request.postData?.params = []
            entry.request.postData?.comment = "Body of \(body.count) bytes not kept: \(reason)."
        }
    }
}
