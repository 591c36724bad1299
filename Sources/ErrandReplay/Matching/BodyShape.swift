import Errand
import Foundation

/// A request body reduced to what matching compares, by content type.
///
/// ``canonical`` is equal for two bodies exactly when they match, so it also serves as a
/// dictionary key: JSON in a canonical spelling without the ignored paths, form fields sorted,
/// a multipart body with its boundary replaced, other bodies as their bytes.
struct BodyShape: Sendable {
    /// How a body is compared.
    enum Kind: String, Sendable {
        case none, json, form, multipart, bytes
    }

    let kind: Kind
    /// The bytes that two matching bodies share.
    let canonical: Data
    /// The parsed JSON, kept to explain a difference.
    let json: ReplayJSON?
    /// The decoded form fields, kept to explain a difference.
    let fields: [RequestKey.Item]
    /// The length of the body as sent or recorded.
    let length: Int

    init(_ request: HAR.Request, rules: MatchRules) {
        guard rules.comparesBody, let body = request.body, !body.isEmpty else {
            self.init(kind: .none, canonical: Data(), length: 0)
            return
        }
        let contentType = request.contentType ?? ""
        let essence = HARCaseInsensitive.key(
            contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? "")
        if essence.hasSuffix("/json") || essence.hasSuffix("+json"), let value = ReplayJSON.parse(body) {
            let kept = value.removing(rules.ignoredBodyPaths)
            self.init(kind: .json, canonical: Data(kept.canonical.utf8), length: body.count, json: kept)
        } else if essence == "application/x-www-form-urlencoded", let text = HARBodyText.utf8String(body) {
            let fields = HARURLQuery.items(in: Substring(text), plusIsSpace: true)
                .filter { !rules.ignoredFormFields.contains($0.name) }
                .map { RequestKey.Item(name: $0.name, value: $0.value) }
                .sorted { ($0.name, $0.value) < ($1.name, $1.value) }
            let text = fields.map {
                PercentEncoding.escape($0.name) + "=" + PercentEncoding.escape($0.value)
            }
            self.init(
                kind: .form, canonical: Data(text.joined(separator: "&").utf8), length: body.count,
                fields: fields)
        } else if essence.hasPrefix("multipart/"), let boundary = Self.boundary(in: contentType) {
            self.init(
                kind: .multipart, canonical: Self.replacing(Data(boundary.utf8), in: body), length: body.count
            )
        } else {
            self.init(kind: .bytes, canonical: body, length: body.count)
        }
    }

    private init(
        kind: Kind, canonical: Data, length: Int, json: ReplayJSON? = nil, fields: [RequestKey.Item] = []
    ) {
        self.length = length
        self.kind = kind
        self.canonical = Data(kind.rawValue.utf8) + [0] + canonical
        self.json = json
        self.fields = fields
    }

    /// Where a recorded body differs from the one sent, up to `limit` lines.
    static func differences(recorded: BodyShape, sent: BodyShape, limit: Int) -> [String] {
        guard recorded.canonical != sent.canonical else { return [] }
        var list: [String] = []
        switch (recorded.kind, sent.kind) {
        case (.json, .json):
            if let left = recorded.json, let right = sent.json {
                ReplayJSON.differences(recorded: left, sent: right, into: &list, limit: limit)
            }
        case (.form, .form):
            for name in Set(recorded.fields.map(\.name)).union(sent.fields.map(\.name)).sorted() {
                let left = recorded.fields.filter { $0.name == name }.map(\.value)
                let right = sent.fields.filter { $0.name == name }.map(\.value)
                if left != right {
                    list.append("form field `\(name)`: \(quoted(left)) recorded, \(quoted(right)) sent")
                }
                if list.count >= limit { break }
            }
        case (.none, _):
            list.append("body: none recorded, \(sent.size) sent")
        case (_, .none):
            list.append("body: \(recorded.size) recorded, none sent")
        case (let left, let right) where left != right:
            list.append(
                "body: compared as \(left.rawValue) recorded, as \(right.rawValue) sent (content types differ)"
            )
        default:
            let prefix = zip(recorded.canonical, sent.canonical).prefix { $0 == $1 }.count
            let offset = max(0, prefix - recorded.kind.rawValue.utf8.count - 1)
            list.append(
                "body: \(recorded.size) recorded, \(sent.size) sent, first difference at byte \(offset)")
        }
        return list
    }

    /// The length of the body, for messages.
    private var size: String {
        "\(length) bytes"
    }

    private static func quoted(_ values: [String]) -> String {
        switch values.count {
        case 0: "none"
        case 1: "\"\(values[0])\""
        default: "[" + values.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        }
    }

    /// The `boundary` parameter of a multipart content type.
    private static func boundary(in contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2,
                HARCaseInsensitive.equal(pair[0].trimmingCharacters(in: .whitespaces), "boundary")
            else { continue }
            let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// `body` with every occurrence of `boundary` replaced by a fixed marker.
    private static func replacing(_ boundary: Data, in body: Data) -> Data {
        var output = Data()
        var start = body.startIndex
        while let found = body.range(of: boundary, in: start..<body.endIndex) {
            output.append(body[start..<found.lowerBound])
            output.append(contentsOf: Array("<boundary>".utf8))
            start = found.upperBound
        }
        output.append(body[start...])
        return output
    }
}
