import Foundation

@testable import Errand

/// Secret redaction of bodies (JSON and form) and of query strings, on any bytes.
enum RedactionFuzz {
    static func run(_ input: FuzzInput) {
        let vocabulary = SecretVocabulary.default
        _ = vocabulary.redactedJSON(input.data)
        _ = vocabulary.redactedBody(input.data, contentType: "application/json")
        _ = vocabulary.redactedBody(input.data, contentType: "application/x-www-form-urlencoded")
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
