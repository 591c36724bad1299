import Errand
import Foundation

/// The mutable part of a replay dispatcher, held in its `Locked`: the cassette's log, the index
/// of its recordings with their play counts, and the secrets seen in this session.
struct ReplayState {
    /// What the dispatcher does with a request, decided under the lock.
    enum Answer {
        /// Answer with the recordings at these entry indices: a response, or a redirect chain
        /// whose last entry is the answer.
        case serve([Int])
        /// Send it upstream and record it.
        case record
        /// Fail with this message.
        case miss(String)
    }

    /// The log written to the cassette: its creator, pages and entries.
    var log: HAR.Log
    /// The recordings, indexed for matching.
    var index: CassetteIndex

    init(log: HAR.Log, configuration: ReplayDispatcher.Configuration) {
        self.log = log
        index = CassetteIndex(
            entries: log.entries, rules: MatchRules(configuration.matching),
            redaction: configuration.redaction)
    }

    /// Finds the answer to `request`, following recorded redirects when asked.
    mutating func answer(
        _ request: HAR.Request, recordsMisses: Bool, configuration: ReplayDispatcher.Configuration,
        context: MissReport.Context
    ) -> Answer {
        let live = index.live(request)
        let repeatLast = configuration.whenExhausted == .repeatLast
        switch index.take(live, repeatLast: repeatLast) {
        case .fresh(let position), .repeated(let position):
            var chain = [index.slots[position].entryIndex]
            guard configuration.followsRedirects else { return .serve(chain) }
            var current = position
            var hop = live.request
            for _ in 0..<20 {
                let after = index.slots[current].entryIndex
                guard let next = Self.redirectTarget(of: log.entries[after], from: hop) else { break }
                let nextLive = index.live(next)
                switch index.take(nextLive, after: after, repeatLast: repeatLast) {
                case .fresh(let target), .repeated(let target):
                    chain.append(index.slots[target].entryIndex)
                    current = target
                    hop = next
                case .exhausted, .none:
                    return .serve(chain)
                }
            }
            return .serve(chain)
        case .exhausted(let played):
            if recordsMisses { return .record }
            return .miss(MissReport.message(for: live, exhausted: played, index: &index, context: context))
        case .none:
            if recordsMisses { return .record }
            return .miss(MissReport.message(for: live, exhausted: [], index: &index, context: context))
        }
    }

    /// Adds a recording just made; it counts as played.
    mutating func append(_ entry: HAR.Entry) {
        log.entries.append(entry)
        index.add(entry.request, entryIndex: log.entries.count - 1, played: true)
    }

    /// Takes back the recording added last, whose write failed.
    mutating func removeLast() {
        guard !log.entries.isEmpty else { return }
        log.entries.removeLast()
        index.removeLast()
    }

    /// The request a recorded redirect leads to, as URLSession would send it, or `nil` when the
    /// entry is not a redirect.
    static func redirectTarget(of entry: HAR.Entry, from previous: HAR.Request) -> HAR.Request? {
        let response = entry.response
        guard [301, 302, 303, 307, 308].contains(response.status) else { return nil }
        let location = response.value(forHeader: "Location") ?? response.redirectURL
        guard !location.isEmpty, let base = URL(string: entry.request.url),
            let target = URL(string: location, relativeTo: base)?.absoluteURL
        else { return nil }
        var request = previous
        request.url = target.absoluteString
        let method = request.method.uppercased()
        let becomesGet =
            (response.status == 303 && method != "HEAD")
            || ([301, 302].contains(response.status) && method == "POST")
        if becomesGet {
            request.method = "GET"
            request.postData = nil
            request.bodySize = 0
            request.headers.removeAll { $0.hasName("Content-Type") || $0.hasName("Content-Length") }
        }
        return request
    }
}
