import Errand
import Foundation

extension CassetteVerifier {
    /// How the live answer differs from the recorded one: the status, the named headers, and
    /// the body unless the status changed (a body of another status is another document).
    func changes(recorded: HAR.Response, live: NetworkResponse) -> [VerificationReport.Kind] {
        var kinds: [VerificationReport.Kind] = []
        if recorded.status != live.statusCode {
            kinds.append(.statusChanged(from: recorded.status, to: live.statusCode))
        }
        for name in options.headers.sorted() {
            let before = recorded.values(forHeader: name)
            let after = live.headers.values(for: name)
            if before != after {
                // A credential's values are compared, never shown.
                let secret = options.vocabulary.matches(name)
                func shown(_ values: [String]) -> String? {
                    values.isEmpty
                        ? nil : secret ? options.vocabulary.placeholder : values.joined(separator: ", ")
                }
                kinds.append(.headerChanged(name: name, from: shown(before), to: shown(after)))
            }
        }
        if recorded.status == live.statusCode {
            kinds += bodyChanges(recorded: recorded, live: live)
        }
        return kinds
    }

    /// The changes of the body: the shape for JSON, equality for the rest when asked.
    private func bodyChanges(recorded: HAR.Response, live: NetworkResponse) -> [VerificationReport.Kind] {
        let before = recorded.body ?? Data()
        let after = live.body
        let recordedType = recorded.value(forHeader: "Content-Type") ?? recorded.content.mimeType
        if let recordedJSON = Self.json(before, contentType: recordedType) {
            guard let liveJSON = ReplayJSON.parse(after) else {
                let liveType = live.headers["Content-Type"].map { " (\($0))" } ?? ""
                let detail =
                    after.isEmpty
                    ? "JSON recorded, no body live"
                    : "JSON recorded, \(after.count) bytes that are not JSON live\(liveType)"
                return [.bodyChanged(detail: detail)]
            }
            return shapeChanges(recorded: recordedJSON, live: liveJSON)
        }
        guard options.comparesOtherBodies, before != after else { return [] }
        let common = zip(before, after).prefix { $0 == $1 }.count
        return [
            .bodyChanged(
                detail:
                    "\(before.count) bytes recorded, \(after.count) bytes live, first difference at byte \(common)"
            )
        ]
    }

    /// The shape changes of two JSON bodies, each path made concrete at the first element
    /// that shows it.
    private func shapeChanges(recorded: ReplayJSON, live: ReplayJSON) -> [VerificationReport.Kind] {
        let ignored = options.ignoredBodyPaths.sorted().map(ReplayJSONPath.init)
        let before = recorded.removing(ignored)
        let after = live.removing(ignored)
        return ReplayJSON.shapeChanges(recorded: before, live: after).map { change in
            func name(_ test: (ReplayJSON) -> Bool) -> String {
                Self.name(
                    change.path ?? after.firstPath(matching: change.pattern[...], where: test)
                        ?? change.pattern)
            }
            switch change.kind {
            case .added: return .keyAdded(path: name { _ in true })
            case .missing: return .keyMissing(path: name { _ in true })
            case .typeChanged(let from, let to):
                return .typeChanged(path: name { $0.fits(to) }, from: from, to: to)
            case .becameNull: return .becameNull(path: name { $0 == .null })
            }
        }
    }

    /// A path as a report shows it; `$` for the whole body.
    private static func name(_ steps: [ReplayJSONPath.Step]) -> String {
        steps.isEmpty ? "$" : ReplayJSONPath.format(steps)
    }

    /// The parsed body when it is JSON: its content type says so (`…/json`, `…+json`), or it
    /// is an object or an array.
    private static func json(_ body: Data, contentType: String) -> ReplayJSON? {
        guard !body.isEmpty else { return nil }
        let essence = HARCaseInsensitive.key(
            contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? "")
        let first = body.first { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }
        guard essence.hasSuffix("/json") || essence.hasSuffix("+json") || first == 0x7B || first == 0x5B
        else { return nil }
        return ReplayJSON.parse(body)
    }
}
