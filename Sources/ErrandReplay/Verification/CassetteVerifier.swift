import Errand
import Foundation

/// Sends a cassette's recorded requests to a live server and reports how the answers differ
/// from the recorded ones, without writing anything: does staging still answer the way the
/// tests' recordings say?
///
/// ```swift
/// let verifier = try CassetteVerifier(
///     cassette: cassetteURL,
///     dispatcher: URLSessionDispatcher(),
///     options: CassetteVerifier.Options { $0.baseURL = URL(string: "https://staging.example.com") })
/// let report = await verifier.verify()
/// #expect(!report.isBreaking(for: [.missing, .type]))
/// ```
///
/// What is compared, for each entry in recorded order:
///
/// - **Status**: a different code is a change; the body is then not compared.
/// - **Headers** named in ``Options/headers``, by value.
/// - **JSON bodies** by *shape*, never by value: a key added or missing, a type changed, a
///   `null` where a value was. An array is compared by the union of its elements' shapes, and
///   an empty array matches any. ``Options/ignoredBodyPaths`` leaves volatile parts out.
/// - **Other bodies** byte for byte, only with ``Options/comparesOtherBodies``.
///
/// What is sent: each recorded request through the given dispatcher, one at a time, at the
/// recorded URL or under ``Options/baseURL``, then through ``Options/mapRequest``. Entries
/// whose method is not idempotent are skipped unless ``Options/sendsNotIdempotent`` lists them;
/// recorded failures are skipped. Secrets stay as the cassette has them: a recorded header that
/// holds the redaction placeholder is not sent, so give the dispatcher what it needs to
/// authenticate (the auth policy, or a `DefaultHeadersInterceptor` with a staging token).
/// `Sendable`.
public struct CassetteVerifier: Sendable {
    /// The cassette's recordings.
    public let har: HAR
    /// The dispatcher the requests go through.
    public let dispatcher: any NetworkDispatcher
    /// What is sent and compared.
    public let options: Options

    /// Creates a verifier for recordings already in memory.
    ///
    /// - Parameters:
    ///   - har: The recordings.
    ///   - dispatcher: The dispatcher that sends the requests, such as a `URLSessionDispatcher`
    ///     with the policies staging needs.
    ///   - options: What is sent and compared.
    public init(har: HAR, dispatcher: any NetworkDispatcher, options: Options = Options()) {
        self.har = har
        self.dispatcher = dispatcher
        self.options = options
    }

    /// Creates a verifier for a cassette file.
    ///
    /// - Parameters:
    ///   - cassette: The HAR file.
    ///   - dispatcher: The dispatcher that sends the requests.
    ///   - options: What is sent and compared.
    /// - Throws: `NetworkError` with code `cassette` when the file cannot be read or is not
    ///   HAR; the message names the file and the position. Untyped, so that
    ///   `catch let error as NetworkError` compiles everywhere.
    public init(cassette: URL, dispatcher: any NetworkDispatcher, options: Options = Options()) throws {
        let har: HAR
        do {
            har = try HAR(contentsOf: cassette)
        } catch {
            throw NetworkError(
                code: .cassette, message: "The cassette cannot be verified. \(error)", underlyingError: error)
        }
        self.init(har: har, dispatcher: dispatcher, options: options)
    }

    /// Sends each recorded request and compares the answer with the recorded one.
    ///
    /// Nothing is written: neither the cassette nor anything else. Cancelling the task stops
    /// the verification: the request in flight is cancelled, and it and the entries after it
    /// are reported as skipped.
    ///
    /// - Returns: The differences, the skipped entries and the entries compared.
    public func verify() async -> VerificationReport {
        var report = VerificationReport()
        for (index, entry) in har.entries.enumerated() {
            let recorded = entry.request
            func skip(_ reason: VerificationReport.Reason) {
                report.skipped.append(
                    VerificationReport.Skipped(
                        entry: index, method: recorded.method, url: recorded.url, reason: reason))
            }
            guard !Task.isCancelled else {
                skip(.cancelled)
                continue
            }
            guard entry.response.status >= 100 else {
                skip(.recordedFailure)
                continue
            }
            let built: RequestData
            do throws(NetworkError) {
                built = try request(for: recorded)
            } catch {
                skip(.invalid(error.message))
                continue
            }
            let mapped: RequestData? = options.mapRequest.map { map in map(index, built) } ?? built
            guard let request = mapped else {
                skip(.excluded)
                continue
            }
            guard request.method.isIdempotent || options.sendsNotIdempotent.contains(index) else {
                skip(.notIdempotent)
                continue
            }
            let sent = (try? request.url(relativeTo: nil).absoluteString) ?? request.path
            let kinds: [VerificationReport.Kind]
            do {
                kinds = changes(recorded: entry.response, live: try await dispatcher.dispatch(request))
            } catch let error as NetworkError {
                guard error.code != .invalidRequest else {
                    skip(.invalid(error.message))
                    continue
                }
                guard error.code != .cancelled || !Task.isCancelled else {
                    skip(.cancelled)
                    continue
                }
                kinds = [.requestFailed(code: error.code.rawValue, message: error.message)]
            } catch {
                kinds = [.requestFailed(code: "unknown", message: "\(error)")]
            }
            report.verified.append(index)
            report.differences += kinds.map {
                VerificationReport.Difference(
                    entry: index, method: request.method.rawValue, url: sent, kind: $0)
            }
        }
        return report
    }
}
