import Dispatch
import Errand
import ErrandSync
import Foundation

/// A dispatcher that answers from a HAR cassette, and records into it through another
/// dispatcher: real server answers in tests, without the server.
///
/// ```swift
/// let replay = ReplayDispatcher(
///     cassette: ReplayDispatcher.cassetteURL(suite: Self.self),
///     baseURL: baseURL,
///     mode: .once,
///     upstream: URLSessionDispatcher(baseURL: baseURL)
/// )
/// let users = try await GetAllUsers().execute(dispatcher: replay)
/// try replay.assertAllPlayed()
/// ```
///
/// The first run records through the upstream and writes the cassette; later runs replay it
/// and never touch the network. What is recorded and when is the ``Mode``; the environment
/// variable `ERRAND_REPLAY_MODE` overrides it, and on CI recording is refused unless allowed
/// (see ``Configuration``). A cassette is HAR 1.2, so one exported by a browser, mitmproxy,
/// Charles or Proxyman replays too, and one recorded here opens in any HAR viewer.
///
/// - **Matching** (``Matching``): method and URL (query order and encoding do not matter)
///   by index lookup, then the body by content type, optionally headers and custom matchers.
/// - **Repeats**: identical requests get their recordings in recorded order; once they are
///   used up the request fails, or the last one repeats (``Configuration/whenExhausted``).
///   Each endpoint keeps its own order, so parallel requests do not disturb each other.
/// - **Redirects**: a recorded 3xx whose target was recorded after it is followed on replay.
/// - **Misses** fail with `unmatchedRequest` and a message that names the nearest recordings,
///   the fields that differ, and the mode to record with.
/// - **Secrets** are redacted before writing (``Configuration/redaction``), and every write is
///   checked for redacted values that turn up elsewhere; such a write is refused.
/// - **Files** are written atomically after each recording, folders created as needed.
///
/// Problems with the cassette itself (it cannot be read, it is missing where it must replay, a
/// recording cannot be written) and with the recording setup (an unknown mode in the
/// environment, recording refused on CI) fail with `cassette` and a message that names the
/// file and the position; ``init(loading:baseURL:mode:upstream:configuration:)`` reports them
/// up front. Thread-safe.
public final class ReplayDispatcher: NetworkDispatcher {
    /// The cassette file.
    public let cassette: URL
    /// The URL that relative request paths resolve against, as the upstream resolves them.
    public let baseURL: URL?
    /// The configuration.
    public let configuration: Configuration

    let setup: ReplaySetup
    let state: Locked<ReplayState>
    /// Where recordings are encoded and written, one at a time, off the concurrency pool.
    let writer = DispatchQueue(label: "Errand.ReplayDispatcher.writer")
    private let upstream: (any NetworkDispatcher)?
    private let setupFailure: NetworkError?

    /// Creates a replay dispatcher; a problem with the cassette or the mode fails each request.
    ///
    /// A cassette that cannot be read, a missing cassette in a mode that only replays, or an
    /// unknown mode in the environment does not stop this initializer: each request then fails
    /// with `cassette` and the reason. Use ``init(loading:baseURL:mode:upstream:configuration:)``
    /// to hear about it here instead.
    ///
    /// - Parameters:
    ///   - cassette: The HAR file to replay from and record to.
    ///   - baseURL: The base URL relative paths resolve against; give the upstream's.
    ///   - mode: What to record and when; the environment variable can override it.
    ///   - upstream: The dispatcher that records go through, such as a `URLSessionDispatcher`;
    ///     `nil` to replay only.
    ///   - configuration: Matching, repeats, redaction, timing and environment.
    public init(
        cassette: URL, baseURL: URL? = nil, mode: Mode = .once, upstream: (any NetworkDispatcher)? = nil,
        configuration: Configuration = Configuration()
    ) {
        self.cassette = cassette
        self.baseURL = baseURL
        self.configuration = configuration
        self.upstream = upstream
        let setup = ReplaySetup(
            mode: mode, cassette: cassette, hasUpstream: upstream != nil, configuration: configuration)
        self.setup = setup
        let loaded = setup.load(cassette, variable: configuration.modeVariable)
        setupFailure = loaded.failure
        state = Locked(ReplayState(log: loaded.log, configuration: configuration))
    }

    /// Creates a replay dispatcher and checks its cassette and mode at once.
    ///
    /// ```swift
    /// let replay = try ReplayDispatcher(loading: cassette, baseURL: baseURL, mode: .replayOnly)
    /// ```
    ///
    /// - Parameters:
    ///   - cassette: The HAR file to replay from and record to.
    ///   - baseURL: The base URL relative paths resolve against; give the upstream's.
    ///   - mode: What to record and when; the environment variable can override it.
    ///   - upstream: The dispatcher that records go through; `nil` to replay only.
    ///   - configuration: Matching, repeats, redaction, timing and environment.
    /// - Throws: `NetworkError` with code `cassette` when the cassette cannot be read (not
    ///   HAR, truncated, unreadable), when it does not exist and the mode only replays, or
    ///   when the environment names an unknown mode; the message says which and where. Declared
    ///   with untyped `throws`, like the rest of the public API, so that
    ///   `catch let error as NetworkError` compiles everywhere; `NetworkError` is the only error.
    public convenience init(
        loading cassette: URL, baseURL: URL? = nil, mode: Mode = .once,
        upstream: (any NetworkDispatcher)? = nil,
        configuration: Configuration = Configuration()
    ) throws {
        self.init(
            cassette: cassette, baseURL: baseURL, mode: mode, upstream: upstream, configuration: configuration
        )
        if let setupFailure { throw setupFailure }
    }

    /// The mode in effect: the one given, or the environment variable's.
    public var mode: Mode { setup.mode }

    /// Whether requests may reach the upstream: a recording mode, an upstream, and not refused on CI.
    public var reachesUpstream: Bool {
        setup.behaviour != .replay(recordsMisses: false) && setupFailure == nil
    }

    /// Answers `request` from the cassette, or records it through the upstream, as the mode says.
    @discardableResult
    public func dispatch(
        request: RequestData,
        onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        do throws(NetworkError) {
            try request.requireValid()
            if let setupFailure { throw setupFailure.attaching(request) }
            switch setup.behaviour {
            case .passthrough:
                guard let upstream else { throw NetworkError(code: .cassette, message: "No upstream.") }
                return upstream.dispatch(request: request, onSuccess: onSuccess, onError: onError)
            case .record:
                let recorded = try Recording.harRequest(resolving: request, against: baseURL)
                return record(request, recorded, onSuccess: onSuccess, onError: onError)
            case .replay(let recordsMisses):
                let recorded = try Recording.harRequest(resolving: request, against: baseURL)
                let context = MissReport.Context(
                    cassette: cassette, setup: setup, variable: configuration.modeVariable)
                let answer = state.withLock { state in
                    state.answer(
                        recorded, recordsMisses: recordsMisses, configuration: configuration, context: context
                    )
                }
                switch answer {
                case .serve(let chain):
                    return serve(chain, for: request, onSuccess: onSuccess, onError: onError)
                case .record:
                    return record(request, recorded, onSuccess: onSuccess, onError: onError)
                case .miss(let message):
                    // A miss that would have been recorded, but recording was refused, is a setup problem.
                    let code: NetworkError.Code = setup.refusal == nil ? .unmatchedRequest : .cassette
                    throw NetworkError(code: code, message: message, request: request)
                }
            }
        } catch {
            onError(error.attaching(request))
            return CancellableAction.none
        }
    }

    /// The upstream, for recording.
    var recordingUpstream: (any NetworkDispatcher)? { upstream }
}

extension NetworkError {
    /// This error with `request` filled in when it has none.
    func attaching(_ request: RequestData) -> NetworkError {
        guard self.request == nil else { return self }
        var copy = self
        copy.request = request
        return copy
    }
}
