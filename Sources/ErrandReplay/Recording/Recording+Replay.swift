import Errand
import Foundation

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
    /// URL. A failure comes back as a `NetworkError` with the recorded code: Errand writes
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
                    message: "Replayed the recorded failure of \(entry.request.method) \(entry.request.url): "
                        + reason,
                    request: request))
        }
        let headers = HTTPHeaders(
            response.matchableHeaders.map { HTTPHeaders.Field(name: $0.name, value: $0.value) })
        return .success(
            NetworkResponse(
                statusCode: response.status, headers: headers, body: response.body ?? Data(),
                url: URL(string: entry.request.url), request: request))
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
