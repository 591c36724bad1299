import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends requests over HTTP with `URLSession`.
///
/// Relative paths resolve against ``baseURL``; absolute URLs pass through. Each request has a
/// deadline (its own `timeout`, else ``timeout``) that bounds the whole request, enforced by a
/// timer of our own because FoundationNetworking on Linux ignores `timeoutIntervalForResource`.
/// A 401 with a `WWW-Authenticate` challenge comes back as a response instead of being answered
/// by the system (which on Linux can wait forever). By default the dispatcher has its own
/// ephemeral session that keeps no cookies and no URL cache (see ``defaultConfiguration()``).
///
/// Redirects are followed, and credentials follow them only within the request's origin: a
/// redirect to another scheme, host or port is sent without the headers
/// ``SecretVocabulary/default`` names (`Authorization`, `Cookie`, `X-API-Key`, …) and without
/// the original URL's user info; the location's own query is sent as the server wrote it. (On a
/// session you pass in, its delegate decides redirects.) Gzip and deflate bodies arrive
/// decompressed. A body over ``maximumResponseSize`` fails with `responseTooLarge` as soon as the
/// limit is crossed.
///
/// A dispatcher with a session of its own sends every request as a delegate-driven task: its
/// delegate sees each chunk of the body as it arrives. Upload and download progress are reported
/// for requests that carry a progress handler (see
/// ``NetworkDispatcher/dispatch(request:progressQueue:progress:onSuccess:onError:)``);
/// public-key pins are checked for the hosts given to
/// ``init(baseURL:configuration:timeout:pinning:maximumResponseSize:)`` (on Linux, where they
/// cannot be checked, requests to those hosts are refused).
public final class URLSessionDispatcher: NetworkDispatcher {
    /// The URL that relative request paths resolve against.
    public let baseURL: URL?
    /// The deadline, in seconds, for requests that do not set their own; `.infinity` for none.
    public let timeout: TimeInterval

    /// The largest response body, in bytes, that a request may receive; see
    /// ``init(baseURL:configuration:timeout:pinning:maximumResponseSize:)``.
    public let maximumResponseSize: Int

    /// The caller's session, when the dispatcher was given one; `nil` when it owns its session.
    private let session: URLSession?
    private let deadlines = DeadlineScheduler()
    /// The URLs of query-less paths, each resolved and parsed once; `nil` when the base URL has
    /// a query of its own, which a memo keyed by path must not hold.
    private let resolvedURLs: PathMemo<URL>?
    /// The public keys pinned per host; `nil` when nothing is pinned.
    let pins: PublicKeyPins?
    /// The delegate of every delegate-driven task: each request of a dispatcher that owns its
    /// session, and each request that asks for progress on a dispatcher given the caller's.
    let transfers: TransferDelegate
    /// The session of those tasks, made on first use: the dispatcher's own session, or, beside
    /// the caller's session, a second one for the requests that ask for progress.
    let trackedSession: TrackedSession

    /// Creates a dispatcher with a session of its own.
    ///
    /// - Parameters:
    ///   - baseURL: The URL that relative paths resolve against; `nil` to require absolute URLs.
    ///   - configuration: The session configuration; ``defaultConfiguration()`` by default.
    ///   - timeout: The deadline, in seconds, for requests that do not set their own; 60 by
    ///     default. `.infinity` means no deadline. A NaN, zero or negative value does not stop
    ///     the program: every request that does not set its own timeout fails with
    ///     `invalidRequest`, naming this timeout.
    ///   - pinning: Public keys that the named hosts must present; `nil` (the default) pins
    ///     nothing. A chain with no pinned key fails with `pinning`. On Linux, where
    ///     FoundationNetworking cannot show the server's certificates, every request to a pinned
    ///     host fails with `pinning` before any connection is made.
    ///   - maximumResponseSize: The largest response body, in bytes, a request may receive;
    ///     ``defaultMaximumResponseSize`` (16 MiB) by default, `Int.max` for no limit. A larger
    ///     body fails with `responseTooLarge` as soon as the limit is crossed: at once when the
    ///     `Content-Length` announces it, else when the bytes received pass it. The transfer is
    ///     cancelled and the bytes received so far are dropped.
    public init(
        baseURL: URL? = nil,
        configuration: URLSessionConfiguration = URLSessionDispatcher.defaultConfiguration(),
        timeout: TimeInterval = 60,
        pinning: PublicKeyPins? = nil,
        maximumResponseSize: Int = URLSessionDispatcher.defaultMaximumResponseSize
    ) {
        let transfers = TransferDelegate(pins: pinning)
        self.baseURL = baseURL
        self.timeout = timeout
        self.maximumResponseSize = maximumResponseSize
        self.pins = pinning
        self.transfers = transfers
        self.resolvedURLs = Self.memo(for: baseURL)
        self.session = nil
        self.trackedSession = TrackedSession(configuration: configuration, delegate: transfers)
    }

    /// Creates a dispatcher that sends through a session you own.
    ///
    /// The deadline still holds. The 401 challenge handling, and what a redirect to another
    /// origin carries, are whatever your session's delegate does. Requests that ask for progress
    /// go through a second session, made with a copy of your session's configuration and a
    /// delegate of the dispatcher's own; every other request goes through your session.
    ///
    /// Your session hands over the body only when it is complete, so the maximum response size
    /// is checked then: a larger body still fails with `responseTooLarge`, but it was held in
    /// memory first. Send large downloads through a dispatcher that owns its session.
    ///
    /// - Parameters:
    ///   - baseURL: The URL that relative paths resolve against.
    ///   - session: The session to send through; it is not invalidated by the dispatcher.
    ///   - timeout: The deadline, in seconds, for requests that do not set their own;
    ///     `.infinity` for none. NaN, zero or negative fails such requests with `invalidRequest`.
    ///   - maximumResponseSize: The largest response body, in bytes, a request may receive;
    ///     ``defaultMaximumResponseSize`` by default, `Int.max` for no limit.
    public init(
        baseURL: URL? = nil, session: URLSession, timeout: TimeInterval = 60,
        maximumResponseSize: Int = URLSessionDispatcher.defaultMaximumResponseSize
    ) {
        self.baseURL = baseURL
        self.timeout = timeout
        self.maximumResponseSize = maximumResponseSize
        self.session = session
        self.resolvedURLs = Self.memo(for: baseURL)
        self.pins = nil
        let transfers = TransferDelegate(pins: nil)
        self.transfers = transfers
        self.trackedSession = TrackedSession(configuration: session.configuration, delegate: transfers)
    }

    deinit {
        trackedSession.invalidate()
    }

    /// A memo of resolved URLs for paths against `baseURL`, unless it has a query or fragment.
    static func memo(for baseURL: URL?) -> PathMemo<URL>? {
        baseURL?.absoluteString.hasQueryOrFragment == true ? nil : PathMemo()
    }

    /// The default ``maximumResponseSize``: 16 MiB, far above any JSON answer and small enough
    /// that a runaway or hostile server cannot exhaust the app's memory.
    public static let defaultMaximumResponseSize = 16 * 1_048_576

    /// An ephemeral configuration with no URL cache and no cookies.
    ///
    /// An API client authenticates with headers, so the session neither stores the cookies a
    /// server sets nor sends any: FoundationNetworking would otherwise parse every response
    /// header line for `Set-Cookie` and look up the cookie store on every request. For a server
    /// that keeps its session in a cookie, pass a configuration that accepts them, for example
    /// `URLSessionConfiguration.ephemeral`.
    public static func defaultConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.httpCookieStorage = nil
        return configuration
    }

    /// Sends `request` over the session, reporting its progress when its caller asked for it.
    @discardableResult
    public func dispatch(
        request: RequestData,
        onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        send(request, reporter: request.progress, onSuccess: onSuccess, onError: onError)
    }

    /// Sends `request` as a delegate-driven task (a ``TrackedTransfer``) of ``trackedSession``:
    /// every request when the dispatcher owns its session; on a dispatcher given the caller's
    /// session, only a request that reports progress, the others going through that session
    /// with a completion handler.
    func send(
        _ request: RequestData, reporter: ProgressReporter?,
        onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        let deadline = request.timeout ?? timeout
        let urlRequest: URLRequest
        do throws(NetworkError) {
            try request.requireValid()
            if request.timeout == nil, let problem = RequestData.timeoutProblem(timeout) {
                throw NetworkError(
                    code: .invalidRequest,
                    message:
                        "The dispatcher's default timeout \(timeout) is not a valid deadline: \(problem).",
                    request: request)
            }
            urlRequest = try request.urlRequest(baseURL: baseURL, timeout: deadline, urls: resolvedURLs)
            try refuseUncheckablePins(urlRequest, request: request)
        } catch {
            onError(error)
            return CancellableAction.none
        }
        let call = SessionCall(request: request, deadline: deadline, onSuccess: onSuccess, onError: onError)
        guard let session, reporter == nil else {
            // Delegate-driven: the delegate sees each chunk as it arrives, so the size limit
            // holds without Foundation buffering the whole body first, and bytes can be counted.
            let task = trackedSession.session.dataTask(with: urlRequest)
            let upload = Int64(urlRequest.httpBody?.count ?? 0)
            transfers.track(
                task,
                as: TrackedTransfer(
                    call: call, reporter: reporter, uploadTotal: upload, limit: maximumResponseSize))
            // A task never resumed never completes: forget it here, or its entry would stay.
            if !call.start(task, deadlines: deadlines) { transfers.untrack(task) }
            return call
        }
        // The caller's session delivers the body whole; the limit can only be checked then.
        let limit = maximumResponseSize
        let task = session.dataTask(with: urlRequest) { data, response, error in
            if let data, data.count > limit {
                call.fail(.responseTooLarge(request: call.request, limit: limit, announced: nil))
                return
            }
            call.complete(data: data, response: response, error: error)
        }
        call.start(task, deadlines: deadlines)
        return call
    }
}

extension RequestData {
    /// The longest idle timeout given to the session, in seconds: `Int32.max`, far inside what
    /// FoundationNetworking's conversions to milliseconds and nanoseconds can hold.
    static let longestIdleTimeout = TimeInterval(Int32.max)

    /// The `URLRequest` that puts this request on the wire.
    ///
    /// - Parameter urls: Where the URL of a query-less path is kept once resolved: parsing a URL
    ///   is the costliest step of building the request.
    func urlRequest(baseURL: URL?, timeout: TimeInterval, urls: PathMemo<URL>? = nil) throws(NetworkError)
        -> URLRequest
    {
        let url: URL
        if let urls, query.isEmpty, !path.hasQueryOrFragment,
            let known = try urls.value(
                for: path, otherwise: { () throws(NetworkError) in try resolvedURL(relativeTo: baseURL) })
        {
            url = known
        } else {
            url = try resolvedURL(relativeTo: baseURL)
        }
        var urlRequest = URLRequest(url: url)
        // GET is URLRequest's own default; setting it anyway costs a normalising copy per request.
        if method != .get { urlRequest.httpMethod = method.rawValue }
        // FoundationNetworking truncates this idle timeout to whole seconds (0.5 s fired at once,
        // 1.5 s after 1 s), so round up: the exact deadline is our own timer's job. It also
        // converts it to Int milliseconds, which traps for .infinity and for huge values, so
        // "no deadline" becomes an idle timeout of 68 years.
        urlRequest.timeoutInterval = min(max(1, timeout.rounded(.up)), RequestData.longestIdleTimeout)
        let headers = effectiveHeaders
        if !headers.isEmpty { urlRequest.allHTTPHeaderFields = Self.headerFields(headers) }
        urlRequest.httpBody = body?.data
        return urlRequest
    }

    /// The header fields as `URLRequest` keeps them, repeated names joined with `,` as
    /// `addValue(_:forHTTPHeaderField:)` joins them.
    ///
    /// Set all at once: FoundationNetworking's `addValue` checks each value character by
    /// character, capitalises the name and copies the whole dictionary, once per field. The
    /// values were validated already, and names go out as written (their case means nothing).
    static func headerFields(_ headers: HTTPHeaders) -> [String: String] {
        var fields: [String: String] = [:]
        fields.reserveCapacity(headers.count)
        for field in headers {
            if let same = fields.index(forKey: field.name)
                ?? fields.indices.first(where: { fields[$0].key.caseInsensitiveEquals(field.name) })
            {
                fields.values[same] += "," + field.value
            } else {
                fields[field.name] = field.value
            }
        }
        return fields
    }
}
