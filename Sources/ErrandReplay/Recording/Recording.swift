import Errand
import Foundation

/// One exchange as a HAR entry: made from a request and its response or failure, and turned
/// back into that response or failure on replay.
///
/// ``ReplayDispatcher`` records and replays through this type; use it directly to write your
/// own traffic to a HAR file or to answer from one.
///
/// ```swift
/// let recording = try Recording(
///     request: .get("/users"), baseURL: baseURL, response: response, duration: .milliseconds(42))
/// let har = HAR(creator: HAR.Creator(name: "MyApp", version: "1.0"), entries: [recording.entry])
/// let replayed = recording.replay(for: .get("/users"))  // .success(the same status, headers, body)
/// ```
///
/// What is kept: the method, the absolute URL, the headers the request carries (those the
/// transport adds on its own, such as `User-Agent`, are not known here), the body with its
/// content type and, for a form, its fields; the response's status, headers and body, decoded,
/// and the URL that answered when a redirect made it another (`_finalURL`).
/// A body that arrived compressed is stored decoded, so `Content-Encoding` is dropped and
/// `Content-Length` set to the stored length. A transport failure or a timeout is kept as
/// status `0` with the error's code and message in `_error`, and replays as the same code.
public struct Recording: Sendable, Equatable {
    /// The entry, as it is written to and read from a cassette.
    public var entry: HAR.Entry

    /// Wraps an entry, such as one read from a cassette.
    ///
    /// - Parameter entry: The recorded exchange.
    public init(entry: HAR.Entry) {
        self.entry = entry
    }

    /// Records a request and the response it got.
    ///
    /// - Parameters:
    ///   - request: The request as it was dispatched.
    ///   - baseURL: The base URL its path was resolved against, for a relative path.
    ///   - response: The response it got, whatever its status.
    ///   - startedDateTime: When the request started.
    ///   - duration: How long the exchange took.
    /// - Throws: `NetworkError` with code `invalidRequest` when the request's URL cannot be formed
    ///   (untyped `throws`, so that `catch let error as NetworkError` compiles everywhere).
    public init(
        request: RequestData, baseURL: URL?, response: NetworkResponse, startedDateTime: Date = Date(),
        duration: Duration = .zero
    ) throws {
        self.init(
            harRequest: try Self.harRequest(resolving: request, against: baseURL), response: response,
            startedDateTime: startedDateTime, duration: duration)
    }

    /// Records an exchange whose request is already in HAR form; it cannot fail.
    package init(
        harRequest: HAR.Request, response: NetworkResponse, startedDateTime: Date, duration: Duration
    ) {
        entry = Self.entry(
            harRequest: harRequest, response: response, startedDateTime: startedDateTime, duration: duration)
    }

    /// The entry of an exchange whose request is already in HAR form, built in place.
    package static func entry(
        harRequest: consuming HAR.Request, response: NetworkResponse, startedDateTime: Date,
        duration: Duration
    ) -> HAR.Entry {
        let milliseconds = Self.milliseconds(duration)
        // The URL that answered, kept only when a redirect made it another than the request's.
        let answered = response.url?.absoluteString
        let finalURL = answered == harRequest.url ? nil : answered
        let harResponse = HAR.Response(
            status: response.statusCode,
            statusText: HTTPReason.phrase(for: response.statusCode),
            cookies: response.headers.values(for: "Set-Cookie").compactMap(RecordedCookies.setCookie),
            headers: response.headers.map { HAR.Header(name: $0.name, value: $0.value) },
            content: HAR.Content(body: response.body, mimeType: response.headers["Content-Type"] ?? ""),
            redirectURL: response.headers["Location"] ?? "",
            finalURL: finalURL
        )
        return HAR.Entry(
            startedDateTime: startedDateTime, time: milliseconds, request: harRequest,
            response: HARContentHeaders.corrected(harResponse),
            timings: HAR.Timings(send: 0, wait: milliseconds, receive: 0))
    }

    /// Records a request that failed before a response came: status `0` and the error.
    ///
    /// - Parameters:
    ///   - request: The request as it was dispatched.
    ///   - baseURL: The base URL its path was resolved against, for a relative path.
    ///   - failure: The error, usually `transport` or `timedOut`.
    ///   - startedDateTime: When the request started.
    ///   - duration: How long it took to fail.
    /// - Throws: `NetworkError` with code `invalidRequest` when the request's URL cannot be formed
    ///   (untyped `throws`, so that `catch let error as NetworkError` compiles everywhere).
    public init(
        request: RequestData, baseURL: URL?, failure: NetworkError, startedDateTime: Date = Date(),
        duration: Duration = .zero
    ) throws {
        self.init(
            harRequest: try Self.harRequest(resolving: request, against: baseURL), failure: failure,
            startedDateTime: startedDateTime, duration: duration)
    }

    /// Records a failure whose request is already in HAR form; it cannot fail.
    package init(harRequest: HAR.Request, failure: NetworkError, startedDateTime: Date, duration: Duration) {
        let milliseconds = Self.milliseconds(duration)
        entry = HAR.Entry(
            startedDateTime: startedDateTime,
            time: milliseconds,
            request: harRequest,
            response: HAR.Response(
                status: 0, httpVersion: "", content: HAR.Content(mimeType: "x-unknown"), bodySize: -1,
                error: "\(failure.code.rawValue): \(Self.stableReason(of: failure))"),
            timings: HAR.Timings(send: 0, wait: milliseconds, receive: 0)
        )
    }

    /// Whether a failure is worth recording: transport failures and timeouts are what the
    /// network did; cancellations and invalid requests are what the caller did.
    ///
    /// - Parameter error: The failure a dispatcher reported.
    /// - Returns: `true` for `transport` and `timedOut`.
    public static func records(_ error: NetworkError) -> Bool {
        error.code == .transport || error.code == .timedOut
    }

    /// The HAR request for a request: its absolute URL, headers, cookies and body.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - baseURL: The base URL a relative path resolves against.
    /// - Returns: The request as HAR records it, with `Content-Type` from the body.
    /// - Throws: `NetworkError` with code `invalidRequest` when the URL cannot be formed (a
    ///   relative path and no base URL); untyped, so that `catch let error as NetworkError` compiles
    ///   everywhere.
    public static func harRequest(for request: RequestData, baseURL: URL?) throws -> HAR.Request {
        try harRequest(resolving: request, against: baseURL)
    }

    /// ``harRequest(for:baseURL:)`` with its error type known to the compiler, for the package's
    /// own callers.
    package static func harRequest(resolving request: RequestData, against baseURL: URL?)
        throws(NetworkError) -> HAR.Request
    {
        harRequest(for: request, url: try request.resolvedURL(relativeTo: baseURL).absoluteString)
    }

    /// The HAR request for a request whose absolute URL is known already; when `url` has no query,
    /// its query items are known to be none, so the URL is not read again.
    package static func harRequest(for request: RequestData, url: String) -> HAR.Request {
        let headers = request.effectiveHeaders
        var postData: HAR.PostData?
        if let body = request.body {
            let params =
                body.kind == .form
                ? body.formFields.map { HAR.Param(name: $0.name, value: $0.value ?? "") } : []
            postData = HAR.PostData(
                mimeType: headers["Content-Type"] ?? body.contentType, body: body.data ?? Data(),
                params: params)
        }
        return HAR.Request(
            method: request.method.rawValue,
            url: url,
            cookies: headers.values(for: "Cookie").flatMap(RecordedCookies.cookieHeader),
            headers: headers.map { HAR.Header(name: $0.name, value: $0.value) },
            queryString: url.utf8.contains(UInt8(ascii: "?")) ? nil : [],
            postData: postData
        )
    }

    /// The reason of a failure in words that do not change from run to run, so that recording
    /// the same failure again writes the same text: the `URLError` code and name when there is
    /// one (curl's messages hold timings), one sentence for any timeout, else the message.
    static func stableReason(of failure: NetworkError) -> String {
        if failure.code == .timedOut {
            return "No complete response within the request's deadline."
        }
        if let underlying = failure.underlyingError {
            let error = underlying as NSError
            if error.domain == NSURLErrorDomain {
                let name = urlErrorNames[error.code].map { " (\($0))" } ?? ""
                return "The request failed with URLError \(error.code)\(name)."
            }
        }
        return failure.message
    }

    private static let urlErrorNames: [Int: String] = [
        NSURLErrorCancelled: "cancelled", NSURLErrorBadURL: "badURL", NSURLErrorTimedOut: "timedOut",
        NSURLErrorUnsupportedURL: "unsupportedURL", NSURLErrorCannotFindHost: "cannotFindHost",
        NSURLErrorCannotConnectToHost: "cannotConnectToHost",
        NSURLErrorNetworkConnectionLost: "networkConnectionLost",
        NSURLErrorDNSLookupFailed: "dnsLookupFailed", NSURLErrorHTTPTooManyRedirects: "httpTooManyRedirects",
        NSURLErrorResourceUnavailable: "resourceUnavailable",
        NSURLErrorNotConnectedToInternet: "notConnectedToInternet",
        NSURLErrorBadServerResponse: "badServerResponse", NSURLErrorZeroByteResource: "zeroByteResource",
        NSURLErrorCannotDecodeRawData: "cannotDecodeRawData",
        NSURLErrorCannotDecodeContentData: "cannotDecodeContentData",
        NSURLErrorCannotParseResponse: "cannotParseResponse",
        NSURLErrorSecureConnectionFailed: "secureConnectionFailed",
        NSURLErrorServerCertificateUntrusted: "serverCertificateUntrusted",
    ]

    /// A duration in milliseconds, to the microsecond.
    static func milliseconds(_ duration: Duration) -> Double {
        let components = duration.components
        let exact = Double(components.seconds) * 1_000 + Double(components.attoseconds) / 1e15
        return (exact * 1_000).rounded() / 1_000
    }
}

extension Recording {
    /// Whether the entry is a failure rather than a response: no status (`0`) was recorded.
    ///
    /// A status of 100 or more is a response even when an exporter also wrote an `_error`
    /// (Chrome does for a body it stopped reading).
    public var isFailure: Bool {
        entry.response.status < 100
    }

    /// The response, or the failure, this recording gives back.
    ///
    /// A response comes back with the recorded status, the headers without HTTP/2
    /// pseudo-headers, the stored body (empty when the exporter saved none) and the recorded
    /// URL that answered (`_finalURL`, after a redirect), else the request's recorded URL; both
    /// as the cassette holds them, credentials redacted. A failure comes back as a `NetworkError` with the recorded code: Errand writes
    /// `transport: …` or `timedOut: …`; for other tools' text, one that speaks of a timeout is
    /// `timedOut`, Chrome's `net::ERR_ABORTED` is `cancelled`, and anything else `transport`.
    ///
    /// - Parameter request: The request being answered, attached to the result.
    /// - Returns: The recorded response, or the recorded failure.
    public func replay(for request: RequestData) -> Result<NetworkResponse, NetworkError> {
        let response = entry.response
        guard !isFailure else {
            let reason = response.error ?? "no response was recorded (status \(response.status))"
            return .failure(
                NetworkError(
                    code: Self.code(ofRecordedError: reason),
                    message: "Replayed the recorded failure of \(entry.request.method) "
                        + "\(SecretVocabulary.default.redactingQuery(ofURL: entry.request.url)): \(reason)",
                    request: request))
        }
        let headers = HTTPHeaders(
            response.matchableHeaders.map { HTTPHeaders.Field(name: $0.name, value: $0.value) })
        return .success(
            NetworkResponse(
                statusCode: response.status, headers: headers, body: response.body ?? Data(),
                url: URL(string: response.finalURL ?? entry.request.url), request: request))
    }

    /// The error code a recorded `_error` text stands for.
    static func code(ofRecordedError text: String) -> NetworkError.Code {
        if let colon = text.firstIndex(of: ":"),
            let code = NetworkError.Code(rawValue: String(text[..<colon]))
        {
            return code
        }
        let lowered = text.lowercased()
        if lowered.contains("timed out") || lowered.contains("timed_out") || lowered.contains("timeout") {
            return .timedOut
        }
        if lowered.contains("err_aborted") {
            return .cancelled
        }
        return .transport
    }
}
