import Errand
import ErrandPolicies
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

    /// A file at a fresh temporary path holding `contents`, and the folder to delete afterwards.
    static func file(containing contents: String) throws -> (url: URL, folder: URL) {
        let url = temporaryFile()
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: url)
        return (url, url.deletingLastPathComponent().deletingLastPathComponent())
    }

    /// The error `FileTokenStorage.read()` throws for the file at `url`.
    static func readError(_ url: URL) async throws -> NetworkError {
        do {
            let tokens = try await FileTokenStorage(url: url).read()
            Issue.record("expected an error, read \(String(describing: tokens))")
            throw CancellationError()
        } catch let error as NetworkError {
            return error
        }
    }

    @Test func aCorruptTokenFileNamesTheFileAndTheProblem() async throws {
        // Given a token file cut off mid-write
        let (url, folder) = try Self.file(containing: "{\"accessToken\": 12")
        defer { try? FileManager.default.removeItem(at: folder) }

        // When it is read
        let error = try await Self.readError(url)

        // Then the error is a token storage error naming the file and what is wrong
        #expect(error.code == .tokenStorage)
        #expect(error.message.contains(url.path))
        #expect(error.message.contains("not valid JSON"))
        #expect(error.underlyingError is DecodingError)
    }

    @Test func aTokenFileWithoutAnAccessTokenSaysWhichKeyIsMissing() async throws {
        let (url, folder) = try Self.file(containing: "{\"refreshToken\": \"r\"}")
        defer { try? FileManager.default.removeItem(at: folder) }

        let error = try await Self.readError(url)

        #expect(error.code == .tokenStorage)
        #expect(error.message.contains(url.path))
        #expect(error.message.contains("\"accessToken\" is missing"))
    }

    @Test func anUnreadableTokenFileNamesTheFile() async throws {
        // Given a folder where the token file should be
        let url = Self.temporaryFile()
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(
                at: url.deletingLastPathComponent().deletingLastPathComponent())
        }

        let error = try await Self.readError(url)

        #expect(error.code == .tokenStorage)
        #expect(error.message.contains("\(url.path) could not be read"))
    }

    @Test func expiryRoundTripsExactlyThroughTheFile() async throws {
        // Given an expiry with sub-millisecond digits
        let tokens = TokenPair(
            accessToken: "a", refreshToken: "r",
            expiresAt: Date(timeIntervalSinceReferenceDate: 812_345_678.123_456_7))
        let url = Self.temporaryFile()
        defer {
            try? FileManager.default.removeItem(
                at: url.deletingLastPathComponent().deletingLastPathComponent())
        }

        // When it is written and read back by another storage on the same file
        try await FileTokenStorage(url: url).write(tokens)
        let read = try await FileTokenStorage(url: url).read()

        // Then the pair is equal, expiry included
        #expect(read == tokens)
        #expect(read?.expiresAt?.timeIntervalSinceReferenceDate == 812_345_678.123_456_7)
    }

    @Test func readsFilesWrittenWithISO8601Dates() async throws {
        let (url, folder) = try Self.file(
            containing: #"{"accessToken": "a", "expiresAt": "2027-01-15T08:00:00Z"}"#)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fractional = try Self.file(
            containing: #"{"accessToken": "b", "expiresAt": "2027-01-15T08:00:00.250Z"}"#)
        defer { try? FileManager.default.removeItem(at: fractional.folder) }

        let tokens = try await FileTokenStorage(url: url).read()
        let precise = try await FileTokenStorage(url: fractional.url).read()

        #expect(tokens?.expiresAt == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(precise?.expiresAt == Date(timeIntervalSince1970: 1_800_000_000.25))
    }

    @Test func tokensNeverShowInDescriptions() {
        #expect(!tokens.description.contains("a1"))
        #expect(!tokens.description.contains("r1"))
    }
}
