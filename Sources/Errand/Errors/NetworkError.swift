import Foundation

/// The one error Errand reports: what failed, for which request, with what response.
///
/// Switch on ``code``. A non-2xx answer keeps its ``response`` (status, headers, body), so nothing
/// the server said is lost. ``description`` is written for the log; ``userMessage`` for a person.
public struct NetworkError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Code: String, Hashable, Sendable, CaseIterable {
        /// The request could not be built or sent as described (bad URL, body on GET, unencodable body).
        case invalidRequest
        /// The transport failed (connection refused or lost, DNS, TLS, a malformed response).
        case transport
        /// The request's deadline passed.
        case timedOut
        /// The request was cancelled.
        case cancelled
        /// The server answered with a status the request does not accept.
        case unacceptableStatus
        /// The body could not be decoded into the response type.
        case decoding
        /// The session's credentials are gone and could not be renewed; sign in again.
        case sessionExpired
        /// The session the request was made in ended (a sign-out, or another user signed in)
        /// before it was answered; it was not sent with the next session's credentials. Drop
        /// it as you would a cancelled request: it belongs to a screen of the previous session.
        case sessionEnded
        /// A fake or replay dispatcher had nothing that matches the request.
        case unmatchedRequest
        /// A cassette could not be read or written, or a recording setting is wrong (replay mode,
        /// a recording refused in CI, a secret that would have been written in clear).
        case cassette
        /// The token storage could not be read or written (a corrupt or unreadable token file, a
        /// keychain error); the stored session is not usable until it is fixed or cleared.
        case tokenStorage
        /// The token storage is out of reach for now (the keychain while the device is locked,
        /// or before its first unlock after a restart); the stored session is kept. Try again
        /// once the device is unlocked: it is no reason to sign the user out.
        case tokenStorageUnavailable
        /// The server's certificate chain carries none of the keys pinned for its host, or
        /// pinning cannot be enforced on this platform, so nothing was sent.
        case pinning
        /// The response body is larger than the dispatcher's maximum response size; the transfer
        /// was stopped as soon as the limit was crossed.
        case responseTooLarge
    }

    /// What kind of failure this is.
    public var code: Code
    /// What went wrong, in detail, for a developer.
    public var message: String
    /// The request that failed, as it was dispatched.
    public var request: RequestData?
    /// The response, when the server answered.
    public var response: NetworkResponse?
    /// The error that caused this one, such as a `URLError` or a `DecodingError`.
    public var underlyingError: (any Error)?
    /// How many times the request was sent; more than 1 when a retry policy tried again.
    public var attempts: Int = 1

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: What kind of failure this is.
    ///   - message: What went wrong, in detail.
    ///   - request: The request that failed.
    ///   - response: The response, when there was one.
    ///   - underlyingError: The error that caused this one.
    public init(
        code: Code, message: String, request: RequestData? = nil, response: NetworkResponse? = nil,
        underlyingError: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.request = request
        self.response = response
        self.underlyingError = underlyingError
    }

    /// The response's status code, when there was a response.
    public var statusCode: Int? { response?.statusCode }

    /// A short sentence fit to show a person, without technical detail.
    ///
    /// It never quotes the request, the server or the cause, so it needs no escaping.
    public var userMessage: String {
        switch code {
        case .invalidRequest: "The request could not be sent."
        case .transport: "Could not reach the server. Check your connection and try again."
        case .timedOut: "The server took too long to respond. Try again."
        case .cancelled: "The request was cancelled."
        case .unacceptableStatus: Self.userMessage(forStatus: response?.statusCode ?? 0)
        case .decoding: "The server's answer could not be read."
        case .sessionExpired: "Your session has expired. Please sign in again."
        case .sessionEnded: "You were signed out before this finished."
        case .unmatchedRequest: "No saved response matches this request."
        case .cassette: "Saved responses could not be read or written."
        case .tokenStorage: "Your saved sign-in could not be read. Please sign in again."
        case .tokenStorageUnavailable:
            "Your saved sign-in is not available right now. Try again in a moment."
        case .pinning: "The connection to the server could not be verified as secure."
        case .responseTooLarge: "The server's answer was too large to load."
        }
    }

    /// The code, the request, the response and the cause, for the log.
    ///
    /// Secrets are redacted as in ``RequestData/description``, and the request's secret values
    /// (secret headers, query items, body fields) are hidden wherever the text repeats them: in
    /// a response URL, an echoing body, or a cause that quotes the URL. Nothing quoted (the
    /// request, the server's answer, the cause, a path in the message) can start a line or run a
    /// terminal escape: its control characters are written as escapes (`\r`, `\n`, `\u{1B}`),
    /// and the lines of a message that has several are indented under the first.
    public var description: String {
        let needles = request.map { EchoNeedles(RequestData.descriptionVocabulary.secretValues(of: $0)) }
        func shown(_ text: String) -> String {
            EscapedText.line(
                needles?.hidden(in: text, placeholder: SecretVocabulary.defaultPlaceholder) ?? text)
        }
        let hiddenMessage =
            needles?.hidden(in: message, placeholder: SecretVocabulary.defaultPlaceholder) ?? message
        var lines = [
            EscapedText.block(hiddenMessage, indent: "  ", firstIndent: "NetworkError.\(code.rawValue): ")
        ]
        if let request { lines.append("  request: " + shown(request.description)) }
        if let response {
            lines.append("  response: " + shown(response.description))
            if code == .unacceptableStatus { lines.append("  body: " + shown(bodySnippet(of: response))) }
        }
        if let underlyingError { lines.append("  cause: " + shown("\(underlyingError)")) }
        return lines.joined(separator: "\n")
    }

    /// The start of the response's body, or why it is not shown: the request's own body could
    /// not be read to find its secrets, and the answer may repeat them.
    private func bodySnippet(of response: NetworkResponse) -> String {
        guard let request, RequestData.descriptionVocabulary.answersMayEchoUnknownSecrets(of: request) else {
            return response.bodySnippet()
        }
        return "(\(response.body.count) bytes, not shown: they may repeat secrets of the request's body, "
            + "which could not be read to find them)"
    }

    private static func userMessage(forStatus status: Int) -> String {
        switch status {
        case 401: "Please sign in to continue."
        case 403: "You don't have permission to do that."
        case 404: "The item could not be found."
        case 409: "That conflicts with a change made elsewhere. Refresh and try again."
        case 429: "Too many requests. Wait a moment and try again."
        case 400..<500: "The request was not accepted."
        case 500..<600: "The server had a problem. Try again later."
        default: "The server gave an unexpected answer."
        }
    }
}

extension NetworkError {
    /// The error for a cancelled request.
    @usableFromInline
    package static func cancelled(_ request: RequestData?) -> NetworkError {
        NetworkError(code: .cancelled, message: "The request was cancelled.", request: request)
    }

    /// The failure of a response whose body is over `limit` bytes.
    ///
    /// - Parameters:
    ///   - request: The request whose answer was too large.
    ///   - limit: The dispatcher's maximum response size.
    ///   - announced: The `Content-Length` that gave it away, or `nil` when the bytes received
    ///     crossed the limit.
    static func responseTooLarge(request: RequestData, limit: Int, announced: Int64?) -> NetworkError {
        let what =
            announced.map { "announces \($0) bytes (Content-Length)" }
            ?? "passed \(limit) bytes while it was still arriving"
        return NetworkError(
            code: .responseTooLarge,
            message:
                "The response body \(what), over the dispatcher's maximum response size of \(limit) bytes; "
                + "the transfer was stopped and nothing of the body was kept. Raise "
                + "URLSessionDispatcher's maximumResponseSize if such a body is expected.",
            request: request)
    }

    /// This error with `request` filled in when it has none.
    package func attaching(_ request: RequestData) -> NetworkError {
        guard self.request == nil else { return self }
        var copy = self
        copy.request = request
        return copy
    }
}
