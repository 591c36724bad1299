import Foundation

@testable import Errand

/// URL and query building from `RequestData`: a path, a base URL and query items from the
/// input either give a URL or a typed error.
enum URLFuzz {
    static func run(_ input: FuzzInput) {
        let fields = input.fields
        let path = fields[0]
        let base = fields.count > 1 ? URL(string: fields[1]) : URL(string: "https://api.example.com/v1/")
        var request = RequestData.get(path)
        var index = 2
        while index + 1 < fields.count {
            request = request.query(fields[index], fields[index + 1])
            index += 2
        }
        let url = try? request.url(relativeTo: base)
        // The request's query items come back from the URL as they were given, after any query
        // of the base URL (an empty name without a value is written as nothing at all).
        if let url, !path.contains("?"), !path.contains("#") {
            let expected = request.query.filter { !($0.name.isEmpty && $0.value == nil) }
            let read = PercentEncoding.queryItems(in: url.query(percentEncoded: true) ?? "")
            fuzzCheck(
                read.suffix(expected.count) == expected[...],
                "the query of \(url) reads back as \(read), which does not end with \(expected)")
        }
        _ = try? request.url(relativeTo: nil)
        _ = try? request.requireValid()
        _ = try? request.curlCommand(baseURL: base)
    }
}
