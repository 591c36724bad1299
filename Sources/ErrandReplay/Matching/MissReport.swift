import Errand
import Foundation

/// The message of a request that no recording answers, written to be fixed from: the request,
/// the cassette, the mode, the nearest recordings with each field that differs, whether a
/// matching recording was already played, and which mode records it.
enum MissReport {
    /// What the message says about the dispatcher.
    struct Context {
        let cassette: URL
        let setup: ReplaySetup
        let variable: String
    }

    /// The message for `live`, which found nothing; `exhausted` are the played matches.
    static func message(
        for live: LiveRequest, exhausted: [Int], index: inout CassetteIndex, context: Context
    ) -> String {
        var lines = ["No recording matches \(live.request.method) \(live.request.url)."]
        let played = index.slots.filter { $0.plays > 0 }.count
        if context.setup.cassetteExisted || !index.slots.isEmpty {
            lines.append(
                "Cassette: \(context.cassette.path) (\(count(index.slots.count, "recording")), \(played) played)."
            )
        } else {
            lines.append("Cassette: \(context.cassette.path) (the file does not exist).")
        }
        lines.append("Mode: \(context.setup.modeDescription).")
        let nearest = nearest(to: live, excluding: Set(exhausted), index: &index)
        if !nearest.isEmpty {
            lines.append("Nearest recordings:")
            for candidate in nearest {
                let request = index.prepare(candidate.position).request
                lines.append(
                    "  entry \(index.slots[candidate.position].entryIndex): \(request.method) \(request.url)")
                lines.append(contentsOf: candidate.differences.map { "    - \($0)" })
            }
        }
        if !exhausted.isEmpty {
            let entries = exhausted.map {
                "entry \(index.slots[$0].entryIndex) (played \(index.slots[$0].plays))"
            }
            lines.append(
                "A recording matches this request but was already played: \(entries.joined(separator: ", ")). "
                    + "Each recording answers once, in recorded order.")
        }
        lines.append(advice(exhausted: !exhausted.isEmpty, context: context))
        return lines.joined(separator: "\n")
    }

    /// `1 recording`, `2 recordings`.
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    private static func advice(exhausted: Bool, context: Context) -> String {
        let variable = context.variable
        if context.setup.refusal != nil {
            return "To record it, run \(variable)=newEpisodes swift test where the upstream is reachable "
                + "and recording is allowed, then commit the cassette."
        }
        if exhausted {
            return
                "To answer repeats with the last recording, set configuration.whenExhausted = .repeatLast; "
                + "to record this repeat, run once with \(variable)=newEpisodes."
        }
        if !context.setup.cassetteExisted {
            return "To record the cassette, run once with \(variable)=once (or newEpisodes)."
        }
        return
            "To record it, run once with \(variable)=newEpisodes (appends what is missing, keeps the rest), "
            + "or \(variable)=recordAll (records the whole cassette again)."
    }

    /// Up to three recordings nearest to `live`, each with what differs.
    private static func nearest(
        to live: LiveRequest, excluding excluded: Set<Int>, index: inout CassetteIndex
    ) -> [(position: Int, differences: [String])] {
        let rough = index.slots.indices.filter { !excluded.contains($0) }
            .map { (position: $0, distance: roughDistance(live.key, index.slots[$0].key)) }
            .sorted { ($0.distance, $0.position) < ($1.distance, $1.position) }
            .prefix(12)
        let ranked = rough.map { candidate in
            let differences = self.differences(live, candidate.position, index: &index)
            let detail =
                differences.count - keyDifferences(live.key, index.slots[candidate.position].key).count
            return (
                position: candidate.position, differences: differences, distance: candidate.distance + detail
            )
        }
        return ranked.filter { !$0.differences.isEmpty }
            .sorted { ($0.distance, $0.position) < ($1.distance, $1.position) }
            .prefix(3)
            .map { ($0.position, $0.differences) }
    }

    /// Every field in which the recording at `position` differs from `live`.
    static func differences(_ live: LiveRequest, _ position: Int, index: inout CassetteIndex) -> [String] {
        var list = keyDifferences(live.key, index.slots[position].key)
        let prepared = index.prepare(position)
        list += BodyShape.differences(recorded: prepared.body, sent: live.body, limit: 4)
        let rules = index.rules
        for name in rules.headers {
            let recorded = prepared.request.values(forHeader: name)
            let sent = live.request.values(forHeader: name)
            if recorded != sent {
                list.append("header `\(name)`: \(quoted(recorded)) recorded, \(quoted(sent)) sent")
            }
        }
        for matcher in rules.matchers where !matcher.matches(live.request, prepared.request) {
            list.append("matcher `\(matcher.name)` refused it")
        }
        return list
    }

    private static func keyDifferences(_ sent: RequestKey, _ recorded: RequestKey) -> [String] {
        var list: [String] = []
        if sent.method != recorded.method {
            list.append("method: \(recorded.method) recorded, \(sent.method) sent")
        }
        if sent.origin != recorded.origin {
            list.append("host: \(recorded.origin) recorded, \(sent.origin) sent")
        }
        if sent.path != recorded.path {
            list.append("path: \(recorded.path) recorded, \(sent.path) sent")
        }
        for name in Set(sent.query.map(\.name)).union(recorded.query.map(\.name)).sorted() {
            let left = recorded.query.filter { $0.name == name }.map(\.value)
            let right = sent.query.filter { $0.name == name }.map(\.value)
            if left != right {
                list.append("query item `\(name)`: \(quoted(left)) recorded, \(quoted(right)) sent")
            }
        }
        return list
    }

    /// A cheap distance from the key alone: method, host, path segments, query items.
    private static func roughDistance(_ sent: RequestKey, _ recorded: RequestKey) -> Int {
        var distance = sent.method == recorded.method ? 0 : 2
        if sent.origin != recorded.origin { distance += 3 }
        if sent.path != recorded.path {
            let left = recorded.path.split(separator: "/")
            let right = sent.path.split(separator: "/")
            distance += 3 * (zip(left, right).filter { $0 != $1 }.count + abs(left.count - right.count))
        }
        if sent.query != recorded.query {
            let names = Set(sent.query.map(\.name)).union(recorded.query.map(\.name))
            distance +=
                names.filter { name in
                    sent.query.filter { $0.name == name } != recorded.query.filter { $0.name == name }
                }.count
        }
        return distance
    }

    private static func quoted(_ values: [String]) -> String {
        switch values.count {
        case 0: "none"
        case 1: "\"\(values[0])\""
        default: "[" + values.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        }
    }
}
