import Errand
import Foundation

/// The recordings of a cassette, indexed for replay: found by lookup, served in recorded order.
///
/// Recordings are grouped in buckets by ``RequestKey`` (method and normalised URL), and a
/// bucket is split into lanes by body the first time a request looks into it. Each lane keeps
/// a cursor past its played recordings, so identical requests get the recordings in the order
/// they were recorded, and requests to other endpoints never move another lane's cursor.
/// Finding a recording costs a dictionary lookup and a few comparisons, whatever the number
/// of recordings. Not thread-safe: the dispatcher holds it in a `Locked`.
struct CassetteIndex {
    /// One recording and what is known about it.
    struct Slot {
        /// Its index in the cassette's entries.
        let entryIndex: Int
        /// The recorded request as the cassette holds it.
        let request: HAR.Request
        /// Its key, taken from the redacted URL.
        let key: RequestKey
        /// The redacted request and its body, worked out the first time they are needed.
        var prepared: (request: HAR.Request, body: BodyShape)?
        /// How many times it has answered.
        var plays = 0
    }

    /// What a lookup found.
    enum Selection {
        /// A recording not played before.
        case fresh(Int)
        /// The last matching recording, played again because repeats are allowed.
        case repeated(Int)
        /// Matching recordings exist, but all have been played.
        case exhausted([Int])
        /// No recording matches.
        case none
    }

    private struct Lane {
        var positions: [Int] = []
        var cursor = 0
    }

    private struct Bucket {
        var positions: [Int] = []
        var lanes: [Data: Lane]?
    }

    let rules: MatchRules
    private(set) var slots: [Slot] = []
    private var buckets: [String: Bucket] = [:]
    /// Redacts every request compared, and keeps every secret it replaced for the writer.
    private(set) var redactor: HARRedactor
    /// A redactor that has seen no secret, copied to learn the secrets of one request.
    private let fresh: HARRedactor
    private let placeholder: String

    init(entries: [HAR.Entry], rules: MatchRules, redaction: HAR.Redaction) {
        self.rules = rules
        redactor = HARRedactor(redaction)
        fresh = redactor
        placeholder = redaction.placeholder
        slots.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            add(entry.request, entryIndex: index, played: false)
        }
    }

    /// The request redacted as the cassette would hold it, with its key and body shape.
    mutating func live(_ request: HAR.Request) -> LiveRequest {
        let redacted = written(request)
        return LiveRequest(
            request: redacted, key: RequestKey(method: redacted.method, url: redacted.url, rules: rules),
            body: BodyShape(redacted, rules: rules))
    }

    /// Adds a recording, such as one just made.
    mutating func add(_ request: HAR.Request, entryIndex: Int, played: Bool) {
        let key = RequestKey(method: request.method, url: redactor.redact(url: request.url), rules: rules)
        let position = slots.count
        slots.append(Slot(entryIndex: entryIndex, request: request, key: key, plays: played ? 1 : 0))
        var bucket = buckets.removeValue(forKey: key.text) ?? Bucket()
        bucket.positions.append(position)
        if bucket.lanes != nil {
            let body = prepare(position).body.canonical
            bucket.lanes?[body, default: Lane()].positions.append(position)
        }
        buckets[key.text] = bucket
    }

    /// Takes back the recording added last.
    mutating func removeLast() {
        guard let slot = slots.popLast() else { return }
        let position = slots.count
        guard var bucket = buckets.removeValue(forKey: slot.key.text) else { return }
        bucket.positions.removeAll { $0 == position }
        if let body = slot.prepared?.body.canonical, var lane = bucket.lanes?.removeValue(forKey: body) {
            lane.positions.removeAll { $0 == position }
            lane.cursor = min(lane.cursor, lane.positions.count)
            if !lane.positions.isEmpty { bucket.lanes?[body] = lane }
        }
        if !bucket.positions.isEmpty { buckets[slot.key.text] = bucket }
    }

    /// Takes the recording that answers `live`: the first unplayed match in recorded order.
    ///
    /// - Parameters:
    ///   - live: The request, from ``live(_:)``.
    ///   - after: Only recordings after this entry index qualify (for redirect targets).
    ///   - repeatLast: Whether the last match is played again once all have been played.
    mutating func take(_ live: LiveRequest, after: Int? = nil, repeatLast: Bool) -> Selection {
        guard var bucket = buckets.removeValue(forKey: live.key.text) else { return .none }
        defer { buckets[live.key.text] = bucket }
        if bucket.lanes == nil {
            var lanes: [Data: Lane] = [:]
            for position in bucket.positions {
                lanes[prepare(position).body.canonical, default: Lane()].positions.append(position)
            }
            bucket.lanes = lanes
        }
        guard var lane = bucket.lanes?.removeValue(forKey: live.body.canonical) else { return .none }
        defer { bucket.lanes?[live.body.canonical] = lane }
        while lane.cursor < lane.positions.count, slots[lane.positions[lane.cursor]].plays > 0 {
            lane.cursor += 1
        }
        func qualifies(_ position: Int) -> Bool {
            (after.map { slots[position].entryIndex > $0 } ?? true) && accepts(live, position)
        }
        for position in lane.positions[lane.cursor...] where slots[position].plays == 0 && qualifies(position)
        {
            slots[position].plays += 1
            return .fresh(position)
        }
        if repeatLast {
            guard let last = lane.positions.last(where: qualifies) else { return .none }
            slots[last].plays += 1
            return .repeated(last)
        }
        let played = lane.positions.filter(qualifies)
        return played.isEmpty ? .none : .exhausted(played)
    }

    /// The redacted request and body shape of a slot, worked out once.
    mutating func prepare(_ position: Int) -> (request: HAR.Request, body: BodyShape) {
        if let prepared = slots[position].prepared { return prepared }
        let redacted = written(slots[position].request)
        let prepared = (request: redacted, body: BodyShape(redacted, rules: rules))
        slots[position].prepared = prepared
        return prepared
    }

    /// `request` as a cassette writes it: redacted by name, then with the echoes of the
    /// secrets it held hidden elsewhere in it (see ``WrittenEchoes``). Both the request sent and
    /// each recording go through here, so they compare alike whoever wrote the recording.
    private mutating func written(_ request: HAR.Request) -> HAR.Request {
        let redacted = redactor.redact(request)
        guard redacted != request else { return redacted }
        var own = fresh
        _ = own.redact(request)
        return WrittenEchoes.hiding(own.secrets, in: redacted, placeholder: placeholder)
    }

    private mutating func accepts(_ live: LiveRequest, _ position: Int) -> Bool {
        guard !rules.headers.isEmpty || !rules.matchers.isEmpty else { return true }
        return rules.acceptsHeadersAndMatchers(live.request, prepare(position).request)
    }
}

/// A request about to be answered, redacted and reduced to what matching compares.
struct LiveRequest {
    /// The request as HAR records it, secrets redacted.
    let request: HAR.Request
    /// Its method and normalised URL.
    let key: RequestKey
    /// Its body, by content type.
    let body: BodyShape
}

/// The part of a request that the index looks up: the method and the normalised URL.
///
/// Two requests with equal keys differ at most in body, headers and what custom matchers look
/// at. The URL is normalised so that spelling differences that do not change its meaning do
/// not count: scheme and host in lower case, no default port, the path percent-decoded, an
/// empty path as `/`, the fragment dropped, and the query items decoded (`+` as a space),
/// without the ignored ones, and sorted.
struct RequestKey: Hashable, Sendable {
    /// The method in upper case.
    let method: String
    /// `scheme://host[:port]`, normalised; empty when the rules ignore the host.
    let origin: String
    /// The decoded path.
    let path: String
    /// The decoded query items that count, sorted by name, then value.
    let query: [Item]
    /// The whole key as one string, for the dictionary.
    let text: String

    /// One decoded query item.
    struct Item: Hashable, Sendable {
        let name: String
        let value: String
    }

    init(method: String, url: String, rules: MatchRules) {
        self.method = method.uppercased()
        let parts = HARURLQuery.parts(of: url)
        let location = Self.split(parts.base)
        origin = rules.ignoresHost ? "" : location.origin
        path = PercentEncoding.unescape(location.path)
        query = (parts.query.map { HARURLQuery.items(in: $0, plusIsSpace: true) } ?? [])
            .filter { !rules.ignoredQueryItems.contains($0.name) }
            .map { Item(name: $0.name, value: $0.value) }
            .sorted { ($0.name, $0.value) < ($1.name, $1.value) }
        let queryText = query.map {
            PercentEncoding.escape($0.name) + "=" + PercentEncoding.escape($0.value)
        }
        text = self.method + " " + origin + path + "?" + queryText.joined(separator: "&")
    }

    /// The URL without its query, for messages: origin and path.
    var location: String { origin + path }

    /// Splits `scheme://authority/path` into a normalised origin and the raw path.
    private static func split(_ base: Substring) -> (origin: String, path: Substring) {
        guard let schemeEnd = base.range(of: "://") else {
            return ("", base.isEmpty ? "/" : base)
        }
        let scheme = base[..<schemeEnd.lowerBound].lowercased()
        let afterScheme = base[schemeEnd.upperBound...]
        let pathStart = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
        var authority = afterScheme[..<pathStart]
        if let at = authority.lastIndex(of: "@") {
            authority = authority[authority.index(after: at)...]
        }
        var host = authority.lowercased()
        if (scheme == "http" && host.hasSuffix(":80")) || (scheme == "https" && host.hasSuffix(":443")) {
            host = String(host[..<(host.lastIndex(of: ":") ?? host.endIndex)])
        }
        let path = afterScheme[pathStart...]
        return (scheme + "://" + host, path.isEmpty ? "/" : path)
    }
}
