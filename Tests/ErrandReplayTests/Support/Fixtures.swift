import Foundation
import Testing

/// Loads the HAR files in `Fixtures/` through `Bundle.module`.
enum Fixtures {
    /// The URL of a fixture, such as `mitmproxy-httpbin.har`.
    static func url(_ name: String) throws -> URL {
        let resource = (name as NSString).deletingPathExtension
        let fileExtension = (name as NSString).pathExtension
        return try #require(
            Bundle.module.url(forResource: resource, withExtension: fileExtension, subdirectory: "Fixtures"),
            "missing fixture \(name)"
        )
    }

    /// The bytes of a fixture.
    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: url(name))
    }
}

/// A fresh temporary folder, removed by `remove()`.
struct TemporaryFolder {
    /// The folder's location.
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("errand-har-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The names of the files in the folder, hidden ones included, sorted.
    func fileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    /// Removes the folder and everything in it.
    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

extension Data {
    /// Whether `needle` occurs anywhere in these bytes.
    func contains(_ needle: String) -> Bool {
        range(of: Data(needle.utf8)) != nil
    }
}
