import ErrandReplay
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

    /// The shipped HAR files.
    static func files(in folder: URL = ExampleProcess.recordings) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "har" }
    }

    @Test func holdNoTokenInClear() throws {
        // Given the shipped recordings
        let files = try Self.files()
        #expect(files.count == 3)

        for file in files {
            // When their credential fields are read
            let text = try String(contentsOf: file, encoding: .utf8)
            let values = try Self.secretValues(in: text)

            // Then each one is the placeholder, and no bearer token or local address remains
            #expect(!values.isEmpty || file.lastPathComponent != "session.har")
            #expect(values.allSatisfy { $0 == "<redacted>" }, "\(file.lastPathComponent): \(values)")
            #expect(!text.contains("Bearer "))
            #expect(!text.contains("127.0.0.1"))
        }
    }

    @Test func holdNoDemoPassword() throws {
        for file in try Self.files() {
            // Given a shipped recording's bytes
            let text = try String(contentsOf: file, encoding: .utf8)
            // Then no demo account's password, nor the wrong one the recording types, is in it
            for password in DemoPasswords.all {
                #expect(
                    !DemoPasswords.occurs(password, in: text), "\(file.lastPathComponent) holds \(password)")
            }
        }
    }

    @Test func holdNoValueTheSharedVocabularyNamesInClear() throws {
        for file in try Self.files() {
            // Given a shipped recording
            let har = try HAR(contentsOf: file)
            // When it is redacted with the shared vocabulary again
            let redacted = har.redacted()
            // Then nothing changes: every header, query item, cookie and body key it names
            // already holds the placeholder
            for (index, (entry, again)) in zip(har.entries, redacted.entries).enumerated() {
                #expect(entry.request == again.request, "\(file.lastPathComponent) entry \(index) request")
                #expect(entry.response == again.response, "\(file.lastPathComponent) entry \(index) response")
            }
        }
    }

    @Test func announceTheLengthOfTheBodiesTheyHold() throws {
        // Given the shipped recordings, whose answers were redacted before they were written
        let files = try FileManager.default.contentsOfDirectory(
            at: ExampleProcess.recordings, includingPropertiesForKeys: nil
        ).filter { $0.pathExtension == "har" }

        for file in files {
            let har = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
            let log = try #require(har["log"] as? [String: Any])
            let entries = try #require(log["entries"] as? [[String: Any]])
            for (index, entry) in entries.enumerated() {
                // When an answer's Content-Length is read beside its body
                let response = try #require(entry["response"] as? [String: Any])
                let content = try #require(response["content"] as? [String: Any])
                let body = (content["text"] as? String) ?? ""
                let headers = try #require(response["headers"] as? [[String: String]])
                let lengths = headers.filter { $0["name"]?.lowercased() == "content-length" }.compactMap {
                    $0["value"]
                }

                // Then it is the length of the body replayed, not of the body before redaction
                let place = "\(file.lastPathComponent) entry \(index)"
                #expect(lengths.allSatisfy { $0 == String(body.utf8.count) }, "\(place): \(lengths)")
                #expect(content["size"] as? Int == body.utf8.count, "\(place)")
            }
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
