import Errand
import Foundation
import Testing

@Suite struct TokenStorageTests {
    let tokens = TokenPair(
        accessToken: "a1", refreshToken: "r1", expiresAt: Date(timeIntervalSince1970: 1_800_000_000))

    static func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appending(
            path: "errand-tokens-\(UUID().uuidString)/nested/tokens.json")
    }

    @Test func inMemoryStorageReadsWritesAndClears() async throws {
        let storage = InMemoryTokenStorage()
        #expect(try await storage.read() == nil)
        try await storage.write(tokens)
        #expect(try await storage.read() == tokens)
        try await storage.clear()
        #expect(try await storage.read() == nil)
    }

    @Test func fileStorageRoundTripsThroughAFileOnlyItsOwnerCanRead() async throws {
        let url = Self.temporaryFile()
        defer {
            try? FileManager.default.removeItem(
                at: url.deletingLastPathComponent().deletingLastPathComponent())
        }
        try await FileTokenStorage(url: url).write(tokens)

        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try await FileTokenStorage(url: url).read() == tokens)
        let siblings = try FileManager.default.contentsOfDirectory(
            atPath: url.deletingLastPathComponent().path)
        #expect(siblings == ["tokens.json"])
    }

    @Test func fileStorageReplacesAndClears() async throws {
        let url = Self.temporaryFile()
        defer {
            try? FileManager.default.removeItem(
                at: url.deletingLastPathComponent().deletingLastPathComponent())
        }
        let storage = FileTokenStorage(url: url)
        try await storage.write(tokens)
        try await storage.write(TokenPair(accessToken: "a2"))
        #expect(try await FileTokenStorage(url: url).read() == TokenPair(accessToken: "a2"))
        try await storage.clear()
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(try await storage.read() == nil)
    }

    @Test func aCorruptTokenFileIsAnErrorNotACrash() async throws {
        let url = Self.temporaryFile()
        defer {
            try? FileManager.default.removeItem(
                at: url.deletingLastPathComponent().deletingLastPathComponent())
        }
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{\"accessToken\": 12".utf8).write(to: url)
        await #expect(throws: (any Error).self) { try await FileTokenStorage(url: url).read() }
    }

    @Test func tokensNeverShowInDescriptions() {
        #expect(!tokens.description.contains("a1"))
        #expect(!tokens.description.contains("r1"))
    }
}
