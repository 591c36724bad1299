import Dispatch
import Errand
import Foundation
import Synchronization

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
/// Problems with the cassette itself (it cannot be read, or a recording cannot be written) and
/// an unknown mode in the environment fail each request with `invalidRequest` and a message
/// that names the file and the position. Thread-safe.
public final class ReplayDispatcher: NetworkDispatcher {
    /// The cassette file.
    public let cassette: URL
    /// The URL that relative request paths resolve against, as the upstream resolves them.
    public let baseURL: URL?
    /// The configuration.
    public let configuration: Configuration

    let setup: ReplaySetup
    let state: Mutex<ReplayState>
    /// Where recordings are encoded and written, one at a time, off the concurrency pool.
    let writer = DispatchQueue(label: "Errand.ReplayDispatcher.writer")
    private let upstream: (any NetworkDispatcher)?
    private let setupFailure: NetworkError?

    /// Creates a replay dispatcher.
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
        var log = HAR.Log(creator: HAR.Creator(name: "Errand", version: "0.1.0"))
        var failure = setup.failure.map { NetworkError(code: .invalidRequest, message: $0) }
        if failure == nil, setup.readsCassette {
            do {
                log = try HAR(contentsOf: cassette).log
            } catch {
                failure = NetworkError(
                    code: .invalidRequest,
                    message: "The cassette cannot be used. \(error) The cassette was left as it is.",
                    underlyingError: error)
            }
        }
        setupFailure = failure
        state = Mutex(ReplayState(log: log, configuration: configuration))
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
                guard let upstream else { throw NetworkError(code: .invalidRequest, message: "No upstream.") }
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
                    throw NetworkError(code: .unmatchedRequest, message: message, request: request)
                }
            }
        } catch {
            onError(error.attaching(request))
            return CancellableAction.none
        }
    }

    /// Delivers the last entry of `chain`, at once or after the recorded time.
    private func serve(
        _ chain: [Int], for request: RequestData, onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        let entries = state.withLock { state in chain.map { state.log.entries[$0] } }
        guard let last = entries.last else {
            onError(NetworkError(code: .unmatchedRequest, message: "No recording.", request: request))
            return CancellableAction.none
        }
        let result = Recording(entry: last).replay(for: request)
        let milliseconds: Double
        switch configuration.timing {
        case .instant: milliseconds = 0
        case .recorded(let factor): milliseconds = entries.reduce(0) { $0 + max(0, $1.time) } * max(0, factor)
        }
        guard milliseconds > 0, milliseconds.isFinite else {
            switch result {
            case .success(let response): onSuccess(response)
            case .failure(let error): onError(error)
            }
            return CancellableAction.none
        }
        let clock = configuration.clock
        let delay = Duration.microseconds(Int64((milliseconds * 1_000).rounded()))
        return PolicyCall.start(request: request, onSuccess: onSuccess, onError: onError) {
            () async throws(NetworkError) -> NetworkResponse in
            do {
                try await clock.sleep(for: delay)
            } catch {
                throw NetworkError(code: .cancelled, message: "The request was cancelled.", request: request)
            }
            return try result.get()
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
