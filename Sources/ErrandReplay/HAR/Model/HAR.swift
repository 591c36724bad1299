import Foundation

/// A HAR 1.2 archive: recorded HTTP traffic, as browsers, proxies and Errand write it.
///
/// `HAR` is the root object of a `.har` file. It is a plain value: `Sendable`, `Equatable`, and
/// cheap to pass between tasks.
///
/// Read a file leniently, as real exporters (Chrome, Firefox, Safari, mitmproxy, Charles,
/// Proxyman) write it, with ``init(data:)`` or ``init(contentsOf:)``. Write one strictly and
/// deterministically with ``encoded(redaction:)`` or ``write(to:redaction:)``: the same archive
/// always gives the same bytes, and secrets are redacted by default.
///
/// Bodies are held as decoded bytes (``Content/body`` and ``PostData/body``): base64 and the
/// Latin-1 text some proxies write are undone when reading and chosen again when writing.
///
/// ```swift
/// let har = try HAR(contentsOf: cassetteURL)
/// for entry in har.entries where entry.request.method == "GET" {
///     let items = entry.request.queryItems
///     let body = entry.response.body ?? Data()
/// }
/// try har.write(to: cassetteURL)
/// ```
public struct HAR: Sendable, Equatable {
    /// The log: the creator, the pages and the recorded entries.
    public var log: Log

    /// Creates an archive around a log.
    ///
    /// - Parameter log: The log the archive holds.
    public init(log: Log) {
        self.log = log
    }

    /// Creates an archive with the given creator and entries and no pages.
    ///
    /// - Parameters:
    ///   - creator: The application that recorded the traffic.
    ///   - entries: The recorded exchanges, in recorded order.
    public init(creator: Creator, entries: [Entry]) {
        self.log = Log(creator: creator, entries: entries)
    }

    /// The recorded entries in recorded order; shorthand for `log.entries`.
    public var entries: [Entry] {
        get { log.entries }
        set { log.entries = newValue }
    }
}

extension HAR: HARDecodable {
    private enum CodingKeys: String, CodingKey {
        case log
    }

    init(harFrom decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.log = try container.harValue(Log.self, forKey: .log)
    }
}

extension HAR: HAREncodable {
    var harJSON: HARJSON {
        .object([("log", log.harJSON)])
    }
}
