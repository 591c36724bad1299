import ErrandFiles
import Foundation
import Testing

@testable import Errand
@testable import ErrandPolicies

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a write killed mid-way leaves beside the token file (a temporary file holding the new
/// pair) is deleted by the next write, by a sign-out and when a storage of the file is made, so a
/// refresh token never outlives a sign-out; another process's write in progress is left alone.
/// The file's size is checked before it is read.
@Suite struct TokenStorageLeftoverTests {
    /// A process ID no process has: above any system's limit.
    static let goneProcess = pid_t.max

    /// A token file in a fresh folder, and its folder.
    static func tokenFile() throws -> (url: URL, folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "errand-leftovers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (folder.appending(path: "tokens.json"), folder)
    }

    /// Leaves beside `url` what a killed write would: as written before process IDs were in the
    /// names, and as written now by a process that is gone; each holds a refresh token.
    static func leaveKilledWrites(beside url: URL) throws -> [URL] {
        let folder = url.deletingLastPathComponent()
        let names = [
            ".tokens.json.\(UUID().uuidString).tmp",
            ".tokens.json.\(UUID().uuidString)-\(goneProcess).tmp",
        ]
        return try names.map { name in
            let leftover = folder.appending(path: name)
            try Data(#"{"accessToken": "a9", "refreshToken": "refresh-leftover"}"#.utf8).write(to: leftover)
            return leftover
        }
    }

    /// Every byte of every file in `folder`, as text.
    static func contents(of folder: URL) throws -> String {
        try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .map { String(decoding: try Data(contentsOf: folder.appending(path: $0)), as: UTF8.self) }
            .joined(separator: "\n")
    }

    enum Moment: String, CaseIterable, CustomTestStringConvertible {
        case storageMade, nextWrite, signOut
        var testDescription: String { rawValue }
    }

    @Test(arguments: Moment.allCases) func aKilledWriteLeavesNothingBehind(after moment: Moment) async throws
    {
        // Given a signed-in user, and the temporary files of writes that were killed
        let (url, folder) = try Self.tokenFile()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await FileTokenStorage(url: url).write(TokenPair(accessToken: "a1", refreshToken: "r1"))
        let leftovers = try Self.leaveKilledWrites(beside: url)

        // When the app starts again, writes, or signs out
        let storage = FileTokenStorage(url: url)
        switch moment {
        case .storageMade: break
        case .nextWrite: try await storage.write(TokenPair(accessToken: "a2", refreshToken: "r2"))
        case .signOut: try await storage.clear()
        }

        // Then the leftovers are gone
        for leftover in leftovers {
            #expect(!FileManager.default.fileExists(atPath: leftover.path), "\(leftover.lastPathComponent)")
        }
        #expect(!(try Self.contents(of: folder)).contains("refresh-leftover"))
    }

    @Test func afterASignOutNoRefreshTokenIsLeftInTheFolder() async throws {
        // Given a refresh token in the file and in what a killed write left
        let (url, folder) = try Self.tokenFile()
        defer { try? FileManager.default.removeItem(at: folder) }
        let storage = FileTokenStorage(url: url)
        try await storage.write(TokenPair(accessToken: "a1", refreshToken: "refresh-stored"))
        _ = try Self.leaveKilledWrites(beside: url)

        // When the user signs out
        try await storage.clear()

        // Then the folder holds no file at all
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func aWriteInProgressInAnotherProcessIsLeftToFinishUntilItIsAbandoned() async throws {
        // Given the temporary files of writes by a process that runs, one just begun, one old
        let (url, folder) = try Self.tokenFile()
        defer { try? FileManager.default.removeItem(at: folder) }
        let running = getppid()
        let recent = folder.appending(path: ".tokens.json.\(UUID().uuidString)-\(running).tmp")
        let old = folder.appending(path: ".tokens.json.\(UUID().uuidString)-\(running).tmp")
        let foreign = folder.appending(path: ".tokens.json.notes.tmp")
        for file in [recent, old, foreign] { try Data("{".utf8).write(to: file) }
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-2 * PrivateFile.abandonedWriteAge)],
            ofItemAtPath: old.path)

        // When tokens are written
        try await FileTokenStorage(url: url).write(TokenPair(accessToken: "a1"))

        // Then the write begun is left to finish, the abandoned one is gone, other files stay
        #expect(FileManager.default.fileExists(atPath: recent.path))
        #expect(!FileManager.default.fileExists(atPath: old.path))
        #expect(FileManager.default.fileExists(atPath: foreign.path))
    }

    @Test func aTokenFileOverItsLimitIsRefusedUnread() async throws {
        // Given a token file of valid tokens padded past a mebibyte
        let (url, folder) = try Self.tokenFile()
        defer { try? FileManager.default.removeItem(at: folder) }
        let padding = String(repeating: " ", count: TokenFile.byteLimit)
        try Data(#"{"accessToken": "a1",\#(padding) "refreshToken": "r1"}"#.utf8).write(to: url)

        // When it is read
        do {
            let tokens = try await FileTokenStorage(url: url).read()
            Issue.record("read \(String(describing: tokens))")
        } catch let error as NetworkError {
            // Then it is a token storage error that names the file and its size
            #expect(error.code == .tokenStorage)
            #expect(error.message.contains("\(url.path) could not be read"))
            #expect(error.message.contains("over the \(TokenFile.byteLimit) allowed"))
        }
    }

    @Test func aFIFOInPlaceOfTheTokenFileIsRefusedWithoutWaiting() async throws {
        // Given a FIFO where the token file should be, which no one will ever write to
        let (url, folder) = try Self.tokenFile()
        defer { try? FileManager.default.removeItem(at: folder) }
        try #require(mkfifo(url.path, 0o600) == 0)

        // When it is read, Then the read fails at once instead of waiting for a writer
        do {
            _ = try await FileTokenStorage(url: url).read()
            Issue.record("a FIFO was read as tokens")
        } catch let error as NetworkError {
            #expect(error.message.contains("not a regular file"))
        }
    }
}
