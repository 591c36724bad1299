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
///   `null` where a value was. An array's elements are compared with the union of the recorded
///   elements' shapes: a key every recorded element had is required of each live element, and
///   one that lacks it is named at its own path (`items[1].name`); a key only some had is
///   optional. An empty array matches any. ``Options/ignoredBodyPaths`` leaves volatile parts out.
/// - **Other bodies** byte for byte, only with ``Options/comparesOtherBodies``.
///
/// What is sent: each recorded request through the given dispatcher, one at a time, at the
/// recorded URL or under ``Options/baseURL``, with ``Options/setHeaders``, then through
/// ``Options/mapRequest``. Only safe methods (`GET`, `HEAD`, `OPTIONS`) are sent unless
/// ``Options/allowsUnsafeMethods`` or ``Options/allowsUnsafeEntries`` opts in: a `PUT` or a
/// `DELETE` changes the server's state although it is idempotent. Recorded failures are skipped.
///
/// Credentials: a recorded header that holds the redaction placeholder is not sent, so give
/// the dispatcher what it needs to authenticate (``Options/setHeaders``, the auth policy, or a
/// `DefaultHeadersInterceptor` with a staging token). Recorded credentials in clear (browser
/// exports carry them) go only to the origin they were recorded from: when the URL actually
/// sent (after ``Options/baseURL`` and ``Options/mapRequest``) has another scheme, host or port,
/// every recorded header and query item the vocabulary names and the URL's user info are left
/// out, the body's secret values are replaced by the placeholder, and
/// ``VerificationReport/withheld`` names them.
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
    ///   HAR; the message names the file, the position and the reason, once, and the
    ///   ``HARError`` is its underlying error. Untyped, so that
    ///   `catch let error as NetworkError` compiles everywhere.
    public init(cassette: URL, dispatcher: any NetworkDispatcher, options: Options = Options()) throws {
        let har: HAR
        do {
            har = try HAR(contentsOf: cassette)
        } catch {
            // Said once, without the system error's dump: the reason and the file are enough.
            var shown = error
            let cause = (error.underlyingError as? CocoaError).map { " (\($0.localizedDescription))" } ?? ""
            shown.underlyingError = nil
            shown.reason += cause
            throw NetworkError(
                code: .cassette, message: "The cassette cannot be verified. \(shown)", underlyingError: error)
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
        let vocabulary = options.vocabulary
        for (index, entry) in har.entries.enumerated() {
            let recorded = entry.request
            func skip(_ reason: VerificationReport.Reason) {
                report.skipped.append(
                    VerificationReport.Skipped(
                        entry: index, method: recorded.method,
                        url: vocabulary.redactingQuery(ofURL: recorded.url), reason: reason))
            }
            guard !Task.isCancelled else {
                skip(.cancelled)
                continue
            }
            guard entry.response.status >= 100 else {
                skip(.recordedFailure)
                continue
            }
            let prepared: RequestData
            do throws(NetworkError) {
                prepared = try self.prepared(for: recorded)
            } catch {
                skip(.invalid(error.message))
                continue
            }
            guard let mapped = options.mapRequest.map({ map in map(index, prepared) }) ?? prepared else {
                skip(.excluded)
                continue
            }
            // Checked on the URL actually sent: a mapping (`--rewrite`) may point it elsewhere.
            let outgoing = withholdingCredentials(from: mapped, recorded: recorded)
            let request = outgoing.request
            guard options.sends(request.method, entry: index) else {
                skip(.unsafeMethod)
                continue
            }
            let sent = vocabulary.redactingQuery(
                ofURL: (try? request.url(relativeTo: nil).absoluteString) ?? request.path)
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
            if !outgoing.withheld.isEmpty {
                report.withheld.append(
                    VerificationReport.Withheld(
                        entry: index, method: request.method.rawValue, url: sent,
                        credentials: outgoing.withheld))
            }
            report.differences += kinds.map {
                VerificationReport.Difference(
                    entry: index, method: request.method.rawValue, url: sent, kind: $0)
            }
        }
        return report
    }
}
