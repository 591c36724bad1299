extension NetworkError {
    /// The error for a pinned host whose certificate chain carries none of its pinned keys.
    static func pinMismatch(host: String, certificates: Int) -> NetworkError {
        NetworkError(
            code: .pinning,
            message:
                "The server for \(EscapedText.line(host)) presented no certificate with a pinned public key "
                + "(\(certificates) certificate(s) in its chain); the connection was refused.")
    }

    /// The error for a pinned host whose chain the system trusted but that could not be read, so
    /// its pins could not be checked.
    static func pinChainUnreadable(host: String) -> NetworkError {
        NetworkError(
            code: .pinning,
            message:
                "The certificate chain of \(EscapedText.line(host)) could not be read, so its pins could not be "
                + "checked; the connection was refused.")
    }

    /// The error for a request to a pinned host where pinning cannot be enforced.
    static func pinningUnavailable(host: String, request: RequestData?) -> NetworkError {
        NetworkError(
            code: .pinning,
            message:
                "Public-key pinning is unavailable on this platform (FoundationNetworking offers no "
                + "server-trust hook), so the request to the pinned host \(EscapedText.line(host)) was refused, not sent.",
            request: request)
    }
}
