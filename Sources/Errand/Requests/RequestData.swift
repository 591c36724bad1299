import Foundation

/// Everything needed to send one HTTP request: where, how, what, and the policies that apply.
///
/// `path` is either an absolute URL (`https://api.example.com/users`) or a path resolved against
/// the dispatcher's base URL (`/users`, `users`). Query items keep their order and are
/// percent-encoded on the wire; a path that already has a query gets the items after `&`.
///
/// Build it with the memberwise initialiser or fluently:
///
/// ```swift
/// RequestData.get("/search").query("q", "swift").header("X-API-Key", key)
/// RequestData.post("/users").body(.json(CreateUser(name: "John")))
/// ```
public struct RequestData: Hashable, Sendable, CustomStringConvertible {
    /// Whether the auth policy attaches a token to a request.
    public enum Authentication: String, Hashable, Sendable {
        /// A token is needed; without one the request fails with `sessionExpired`.
        case required
        /// A token is attached when there is one (the default).
        case optional
        /// Never attach a token (login and token refresh calls).
        case none
    }

    /// An absolute URL, or a path resolved against the dispatcher's base URL.
    public var path: String { didSet { marks.identity = nil } }
    /// The HTTP method.
    public var method: HTTPMethod
    /// Header fields set by the caller. `Content-Type` comes from the body unless set here.
    public var headers: HTTPHeaders { didSet { marks.identity = nil } }
    /// Query items, in order, added to the URL.
    public var query: [URLQueryItem] { didSet { marks.identity = nil } }
    /// The body, if any. `GET` and `HEAD` requests may not have one.
    public var body: Body?
    /// How long the whole request may take, in seconds; `nil` uses the dispatcher's default.
    ///
    /// `.infinity` means no deadline (so does anything over about 290 years). NaN, zero
    /// and negative values are refused with `invalidRequest` when the request is sent.
    public var timeout: TimeInterval?
    /// Whether the auth policy attaches a token.
    public var authentication: Authentication
    /// Whether the retry policy may retry this request although its method is not idempotent.
    public var allowsRetryWhenNotIdempotent: Bool
    /// Whether this request goes straight through a request queue instead of waiting its turn.
    public var bypassesQueue: Bool
    /// The session the request was made in, once a policy that holds requests across time (a
    /// retry, a queue, a cache, a coalescer) has stamped it, its identity once a policy
    /// computed it, and its progress handler; not part of equality.
    package var marks = RequestMarks()

    /// Creates a request description.
    ///
    /// - Parameters:
    ///   - path: An absolute URL, or a path resolved against the dispatcher's base URL.
    ///   - method: The HTTP method; `GET` by default.
    ///   - headers: Header fields.
    ///   - query: Query items, in order.
    ///   - body: The body; `nil` for none.
    ///   - timeout: The deadline for the whole request in seconds; `nil` for the dispatcher's
    ///     default, `.infinity` for none.
    ///   - authentication: Whether the auth policy attaches a token; `.optional` by default.
    ///   - allowsRetryWhenNotIdempotent: Lets the retry policy retry a `POST` or `PATCH`.
    ///   - bypassesQueue: Lets the request skip a request queue.
    public init(
        path: String,
        method: HTTPMethod = .get,
        headers: HTTPHeaders = [:],
        query: [URLQueryItem] = [],
        body: Body? = nil,
        timeout: TimeInterval? = nil,
        authentication: Authentication = .optional,
        allowsRetryWhenNotIdempotent: Bool = false,
        bypassesQueue: Bool = false
    ) {
        self.path = path
        self.method = method
        self.headers = headers
        self.query = query
        self.body = body
        self.timeout = timeout
        self.authentication = authentication
        self.allowsRetryWhenNotIdempotent = allowsRetryWhenNotIdempotent
        self.bypassesQueue = bypassesQueue
    }

    /// The headers as they go on the wire: the caller's, plus `Content-Type` from the body when
    /// the caller did not set one.
    public var effectiveHeaders: HTTPHeaders {
        guard let body, !headers.contains("Content-Type") else { return headers }
        var result = headers
        result.add("Content-Type", body.contentType)
        return result
    }

    /// The method and the path with its query, for example `GET /search?q=swift`, on one line.
    ///
    /// Credentials are shown as `<redacted>`, as in every log line, since descriptions end up in
    /// logs and errors: the values of query items that ``SecretVocabulary/default`` hides
    /// (`token`, `api_key`, `password`, … and, in queries only, `key`), in any case and spelling
    /// (`accessToken`, `ACCESS-TOKEN`), in ``query`` and in a query written into ``path`` alike,
    /// and the user info of an absolute path (`https://<redacted>@host/…`). Control characters
    /// are shown as escapes (`\r`, `\n`, `\u{1B}`), so a description cannot end a line.
    public var description: String {
        EscapedText.line(Self.descriptionVocabulary.redactedTarget(of: self))
    }

    /// Query item names whose values ``description`` never shows: the names of
    /// ``SecretVocabulary/default`` and its query-only names (`key`).
    ///
    /// ``description`` matches these in any case and spelling (`apiKey`, `API-KEY`).
    public static let secretQueryNames: Set<String> = SecretVocabulary.defaultNames.union(
        SecretVocabulary.defaultQueryNames)

    /// The vocabulary of descriptions and error messages: ``SecretVocabulary/default``, the one
    /// that log lines, cURL commands and recordings use unless configured otherwise.
    static let descriptionVocabulary = SecretVocabulary.default

    /// Checks what can be checked before anything is sent.
    ///
    /// Every dispatcher calls it before sending, so what it refuses is never sent anywhere, and
    /// nothing is dropped silently: the method must be an HTTP token, header names tokens,
    /// header values and the body's content type free of control characters other than tab (no
    /// CR, LF or NUL), and the timeout a positive number of seconds or `.infinity`. (Spaces and
    /// tabs at either end of a header value are not part of it in HTTP, and are not sent.)
    ///
    /// Declared with untyped `throws` so that `catch let error as NetworkError` compiles
    /// everywhere (see "Catching errors" in the README); `NetworkError` is the only error thrown.
    ///
    /// - Throws: `NetworkError` with code `invalidRequest`, with a message naming the field and
    ///   showing any bad character escaped, when the method or a header field is not valid HTTP,
    ///   the timeout is NaN, zero or negative, a `GET` or `HEAD` has a body, or the body could not
    ///   be encoded.
    public func validate() throws {
        try requireValid()
    }

    /// ``validate()`` with its error type known to the compiler, for the package's own callers.
    package func requireValid() throws(NetworkError) {
        try validateHead()
        guard let body else { return }
        if !method.allowsBody {
            throw NetworkError(
                code: .invalidRequest,
                message: "A \(method) request cannot have a body (it has a \(body.kind) body); "
                    + "send the data as query items, or use POST.",
                request: self
            )
        }
        if let failure = body.encodingFailure {
            throw NetworkError(
                code: .invalidRequest, message: "The \(body.kind) body could not be encoded: \(failure)",
                request: self)
        }
    }
}
