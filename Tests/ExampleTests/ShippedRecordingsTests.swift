import Foundation
import Testing

@Suite struct ShippedRecordingsTests {
    /// Every value of a JSON key or header whose name says it holds a credential.
    private static func secretValues(in har: String) throws -> [String] {
        let pattern =
            #""(accessToken|refreshToken|access_token|refresh_token|token)"\s*:\s*"([^"]*)""#
            + #"|\\"(accessToken|refreshToken)\\":\s*\\"([^"\\]*)\\""#
            + #"|"name":\s*"(Authorization|Cookie|Set-Cookie)",\s*"value":\s*"([^"]*)""#
        let regex = try NSRegularExpression(pattern: pattern)
        let range = NSRange(har.startIndex..., in: har)
        return regex.matches(in: har, range: range).compactMap { match in
            [2, 4, 6].compactMap { Range(match.range(at: $0), in: har).map { String(har[$0]) } }.first
        }
    }

    @Test func holdNoTokenInClear() throws {
        // Given the shipped recordings
        let files = try FileManager.default.contentsOfDirectory(
            at: ExampleProcess.recordings, includingPropertiesForKeys: nil
        ).filter { $0.pathExtension == "har" }
        #expect(files.count == 2)

        for file in files {
            // When their credential fields are read
            let text = try String(contentsOf: file, encoding: .utf8)
            let values = try Self.secretValues(in: text)

            // Then each one is the placeholder, and no bearer token or local address remains
            #expect(!values.isEmpty || file.lastPathComponent == "catalog.har")
            #expect(values.allSatisfy { $0 == "<redacted>" }, "\(file.lastPathComponent): \(values)")
            #expect(!text.contains("Bearer "))
            #expect(!text.contains("127.0.0.1"))
        }
    }

    @Test func staySmall() throws {
        // Given / When
        let sizes = try FileManager.default.contentsOfDirectory(
            at: ExampleProcess.recordings, includingPropertiesForKeys: [.fileSizeKey]
        ).map { try $0.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0 }

        // Then
        #expect(sizes.reduce(0, +) < 100_000)
    }
}
