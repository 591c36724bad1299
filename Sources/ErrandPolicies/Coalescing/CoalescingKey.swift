import Errand
import Foundation

/// What makes two requests the same read: method, URL on the wire, the headers that matter,
/// whose request it is (`RequestIdentity`: its credentials and the session an auth policy
/// further in signs it in) and whether that policy attaches a token.
///
/// Only `GET` and `HEAD` without a body have a key; every other request goes through alone.
struct CoalescingKey: Hashable, Sendable {
    /// The headers whose values always count: credentials and content negotiation.
    static let standardHeaders = ["Authorization", "Accept", "Accept-Language", "Cookie"]

    /// Relative paths are read against this stand-in, so `users` and `/users` share a key
    /// without knowing the base URL of the transport.
    private static let relativeBase = URL(string: "errand-relative://base")

    let method: String
    let url: String
    /// The values of each header that matters, in the order of the names.
    let headerValues: [[String]]
    let authentication: RequestData.Authentication
    let identity: RequestIdentity

    /// The key of `request`, or `nil` when it may not share a dispatch: an unsafe method, a
    /// body, or a path or timeout that the base dispatcher will refuse and report. A key notes
    /// the request's identity on it, for the policies further in.
    init?(_ request: inout RequestData, headers names: [String]) {
        guard request.body == nil else { return nil }
        // A timeout the base dispatcher refuses must reach it, not start a timer here.
        if let timeout = request.timeout, !(timeout > 0) { return nil }
        let method = request.method.rawValue.uppercased()
        guard method == "GET" || method == "HEAD" else { return nil }
        guard
            let url = try? WireURL.string(
                path: request.path, baseURL: Self.relativeBase, query: request.query)
        else { return nil }
        self.method = method
        self.url = url
        self.headerValues = names.map { request.headers.values(for: $0) }
        self.authentication = request.authentication
        // Kept with the request, so that a cache further in reads it instead of computing it.
        request.noteIdentity()
        self.identity = request.identity
    }
}
