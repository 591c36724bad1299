import Errand
import ErrandSync
import Foundation

/// Keeps the last exchanges of an app in memory, redacted, and writes them on demand as a HAR
/// 1.2 file that Chrome, Charles and ``ReplayDispatcher`` open.
///
/// The app keeps one recorder and records through it with
/// `NetworkDispatcher.flightRecording(into:)`; when something goes wrong, it writes the
/// last minutes of traffic to a file with ``write(to:)``:
///
/// ```swift
/// let recorder = FlightRecorder(FlightRecorder.Configuration(maximumEntries: 200))
/// let dispatcher = URLSessionDispatcher(baseURL: baseURL).flightRecording(into: recorder)
/// // … later, from a "Send a bug report" button:
/// try recorder.write(to: reportFolder.appendingPathComponent("last-requests.har"))
/// ```
///
/// Nothing is kept in clear: each exchange is redacted with the configuration's
/// ``HAR/Redaction`` (the shared `SecretVocabulary` by default) before it is stored, and a value
/// it hid that the same exchange echoes elsewhere (a token quoted in a response body) is hidden
/// there too, or the body is dropped with a note when it cannot be. A URL's user info is hidden
/// whole, and the URL that answered, when a redirect made it another than the request's
/// (`NetworkResponse.url`), is kept in the response's `_finalURL`, redacted like the request's.
/// A failed request is kept with status `0` and its error's code and message in `_error`.
///
/// Keeping costs a check of the places the redaction looks, on the thread that ends the
/// exchange: an exchange with nothing to hide (no secret header, no query, JSON bodies in which
/// no secret key can occur) is kept as it came and turned into HAR only by ``har()`` or
/// ``write(to:)``; any other is turned into HAR and redacted at once. The absolute URL of a path
/// without a query is resolved once, and nothing is serialized until the recording is written. The oldest exchanges are dropped when ``Configuration/maximumEntries``,
/// ``Configuration/maximumAge`` (on the injected clock) or ``Configuration/maximumBytes`` is
/// reached. `Sendable`: one lock guards what is kept.
public final class FlightRecorder: Sendable {
    /// How much is kept, and what is hidden.
    public let configuration: Configuration
    let elapsed: @Sendable () -> Duration
    let now: @Sendable () -> Date
    /// Tells which JSON bodies may hold a key that the redaction hides.
    let probe: JSONKeyProbe
    /// A redactor with nothing seen yet, made once: each exchange starts from a copy of it.
    let freshRedactor: HARRedactor
    /// The absolute URLs of the query-less paths seen, against ``Configuration/baseURL``.
    let resolvedURLs: ResolvedURLs
    private let store = Locked(Store())

    /// One kept exchange, with what it weighs and when it ended.
    ///
    /// A class: the store moves a reference, not the whole entry, on every keep and compaction.
    final class Kept: Sendable {
        /// The exchange as it is kept: redacted in HAR form, or as it came when nothing in it
        /// needed hiding.
        enum Form: Sendable {
            case entry(HAR.Entry)
            case plain(PlainExchange)
        }

        let form: Form
        let bytes: Int
        let endedAt: Duration

        init(_ form: consuming Form, bytes: Int, endedAt: Duration) {
            self.form = form
            self.bytes = bytes
            self.endedAt = endedAt
        }
    }

    /// The kept exchanges, oldest first from `start`; slots before it are spent.
    private struct Store {
        var kept: [Kept?] = []
        var start = 0
        var bytes = 0

        var count: Int { kept.count - start }

        mutating func removeOldest() {
            guard start < kept.count, let oldest = kept[start] else { return }
            bytes -= oldest.bytes
            kept[start] = nil
            start += 1
            if start > 64, start * 2 > kept.count {
                kept.removeFirst(start)
                start = 0
            }
        }

        var oldest: Kept? { start < kept.count ? kept[start] : nil }
    }

    /// Creates an empty recorder.
    ///
    /// - Parameters:
    ///   - configuration: How much to keep and what to hide.
    ///   - clock: The clock that durations and ``Configuration/maximumAge`` are measured on;
    ///     inject a manual clock in tests.
    ///   - now: The wall-clock time, for each entry's `startedDateTime`.
    public init(
        _ configuration: Configuration = Configuration(), clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.configuration = configuration
        self.elapsed = Self.elapsedReader(clock)
        self.now = now
        let redaction = configuration.redaction
        self.freshRedactor = HARRedactor(redaction)
        self.resolvedURLs = ResolvedURLs(baseURL: configuration.baseURL)
        self.probe = JSONKeyProbe(
            normalizedNames: redaction.vocabulary.normalizedNames.union(
                redaction.bodyKeys.map(SecretVocabulary.normalized)))
    }

    private static func elapsedReader<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Duration {
        let origin = clock.now
        return { origin.duration(to: clock.now) }
    }

    /// How many exchanges are kept now, after dropping those past the maximum age.
    public var count: Int {
        let cutoff = ageCutoff()
        return store.withLock { store in
            Self.expire(&store, before: cutoff)
            return store.count
        }
    }

    /// About how many bytes the kept exchanges take, as ``Configuration/maximumBytes`` counts them.
    public var byteCount: Int {
        store.withLock { $0.bytes }
    }

    /// The kept exchanges as an archive, oldest first, already redacted.
    ///
    /// - Returns: A HAR 1.2 archive with the configuration's creator.
    public func har() -> HAR {
        let cutoff = ageCutoff()
        let kept = store.withLock { store in
            Self.expire(&store, before: cutoff)
            return store.kept[store.start...].compactMap { $0 }
        }
        // Built outside the lock, so that writing a recording never holds up an exchange.
        let entries = kept.map { kept -> HAR.Entry in
            switch kept.form {
            case .entry(let entry):
                return entry
            case .plain(let exchange):
                // Nothing to hide was found when it was kept; redacting again costs little here
                // and keeps the archive safe should that check ever miss a case.
                var entry = exchange.entry
                redact(&entry)
                return entry
            }
        }
        return HAR(creator: configuration.creator, entries: entries)
    }

    /// Writes the kept exchanges to a HAR file, atomically: a failed write leaves any previous
    /// file whole.
    ///
    /// Declared with untyped `throws` so that `catch let error as NetworkError` compiles
    /// everywhere; `NetworkError` is the only error thrown.
    ///
    /// - Parameter url: Where to write, as a mode-0600 file; missing folders are created at
    ///   mode 0700, whatever the umask.
    /// - Throws: `NetworkError` with code `cassette` when the file cannot be written, with the
    ///   `HARError` as its underlying error.
    public func write(to url: URL) throws {
        do {
            try har().write(to: url, redaction: configuration.redaction)
        } catch {
            throw NetworkError(
                code: .cassette, message: "The flight recording was not written: \(error)",
                underlyingError: error)
        }
    }

    /// Forgets every kept exchange.
    public func clear() {
        store.withLock { $0 = Store() }
    }

    /// Stores an exchange that is already redacted, or has nothing to hide, then drops the oldest
    /// ones over the limits.
    func keep(_ form: consuming Kept.Form, bytes: Int) {
        let endedAt = elapsed()
        let cutoff = ageCutoff(at: endedAt)
        let limit = max(configuration.maximumEntries, 1)
        let budget = configuration.maximumBytes
        let kept = Kept(form, bytes: bytes, endedAt: endedAt)
        store.withLock { store in
            store.kept.append(kept)
            store.bytes += bytes
            Self.expire(&store, before: cutoff)
            while store.count > limit || (store.bytes > budget && store.count > 0) {
                store.removeOldest()
            }
        }
    }

    private func ageCutoff(at time: Duration? = nil) -> Duration? {
        configuration.maximumAge.map { (time ?? elapsed()) - $0 }
    }

    private static func expire(_ store: inout Store, before cutoff: Duration?) {
        guard let cutoff else { return }
        while let oldest = store.oldest, oldest.endedAt < cutoff {
            store.removeOldest()
        }
    }
}
