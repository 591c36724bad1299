import Foundation

@testable import Errand

/// Secret redaction of bodies (JSON and form) and of query strings, on any bytes.
enum RedactionFuzz {
    static func run(_ input: FuzzInput) {
        let vocabulary = SecretVocabulary.default
        // Redacted JSON is still JSON. (Foundation on Linux reads a document up to a NUL byte
        // and ignores the rest, so only inputs without one are compared with it.)
        let redacted = vocabulary.redactedJSON(input.data)
        if !input.data.contains(0),
            let original = try? JSONSerialization.jsonObject(with: input.data, options: .fragmentsAllowed)
        {
            fuzzCheck(redacted != nil, "valid JSON could not be redacted: \(original)")
            if let redacted {
                let reread = try? JSONSerialization.jsonObject(
                    with: redacted.data, options: .fragmentsAllowed)
                fuzzCheck(
                    reread != nil,
                    "redacted JSON is not JSON: \(String(decoding: redacted.data, as: UTF8.self))")
            }
        }
        // Read leniently, JSON that can be redacted gives the same secrets, and is read to its end.
        let lenient = JSONSecretRedactor.secretsAsFarAsReadable(in: input.data, isSecret: vocabulary.matches)
        if let redacted {
            fuzzCheck(
                lenient.secrets == redacted.secrets && lenient.unreadFrom == nil,
                "a lenient read gave \(lenient), the redaction \(redacted.secrets)")
        }
        _ = vocabulary.redactedBody(input.data, contentType: "application/json")
        // A redacted form keeps every field name, in order.
        let form = vocabulary.redactedBody(input.data, contentType: "application/x-www-form-urlencoded")
        if let form {
            let before = PercentEncoding.queryItems(in: input.text).map(\.name)
            let after = PercentEncoding.queryItems(in: String(decoding: form, as: UTF8.self)).map(\.name)
            fuzzCheck(before == after, "redacting the form changed its names from \(before) to \(after)")
        }
        let fields = input.fields
        var items: [URLQueryItem] = []
        var index = 0
        while index < fields.count {
            items.append(
                URLQueryItem(name: fields[index], value: index + 1 < fields.count ? fields[index + 1] : nil))
            index += 2
        }
        _ = vocabulary.redacted(items)
        _ = vocabulary.redactedQueryString(items)
        var headers = HTTPHeaders()
        for item in items { headers.add(item.name, item.value ?? "") }
        _ = vocabulary.redacted(headers)
    }
}
