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
        _ = try? request.url(relativeTo: base)
        _ = try? request.url(relativeTo: nil)
        _ = try? request.requireValid()
        _ = try? request.curlCommand(baseURL: base)
    }
}
