import Errand
import ErrandPolicies
import ErrandReplay
import ErrandTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every file the library writes is readable by its owner only (0600) and every folder it makes
/// for one is 0700, whatever the process's umask: the token file, disk cache entries and their
/// key, cassettes, recordings and flight recordings. Folders that were there already keep their
/// modes.
///
/// Serialized, since the umask belongs to the whole process; the library no longer depends on
/// it, so suites running meanwhile write the same files either way.
@Suite(.serialized) struct FileModeTests {
    static let umasks: [mode_t] = [0o000, 0o022]

    /// A fresh folder of the test's own, with a mode the library must leave alone.
    static func root() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appending(path: "errand-modes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        chmod(root.path, 0o751)
        return root
    }

    /// Runs `body` with the process's umask set to `mask`, and restores it.
    static func withUmask<Result>(_ mask: mode_t, _ body: () async throws -> Result) async rethrows -> Result
    {
        let previous = umask(mask)
        defer { umask(previous) }
        return try await body()
    }

    /// The permission bits of the file or folder at `url`.
    static func mode(_ url: URL) -> mode_t? {
        var status = stat()
        guard stat(url.path, &status) == 0 else { return nil }
        return status.st_mode & 0o7777
    }

    /// Checks that `file` is 0600, each folder in `made` 0700, and `root` untouched.
    static func expectPrivate(_ file: URL, madeFolders made: [URL], root: URL, umask mask: mode_t) {
        #expect(mode(file) == 0o600, "\(file.lastPathComponent) under umask \(String(mask, radix: 8))")
        for folder in made {
            #expect(
                mode(folder) == 0o700, "\(folder.lastPathComponent) under umask \(String(mask, radix: 8))")
        }
        #expect(mode(root) == 0o751, "a folder that was there is left alone")
    }

    @Test(arguments: umasks) func theTokenFileAndTheFoldersMadeForIt(umask mask: mode_t) async throws {
        // Given a folder of the user's, and the Example's layout beneath it (home/<environment>/)
        let root = try Self.root()
        defer { try? FileManager.default.removeItem(at: root) }
        let home = root.appending(path: ".errand-example")
        let file = home.appending(path: "offline/tokens.json")

        // When tokens are written under the umask
        try await Self.withUmask(mask) {
            try await FileTokenStorage(url: file).write(TokenPair(accessToken: "a", refreshToken: "r"))
        }

        // Then the file and the folders made for it are private, the user's folder untouched
        Self.expectPrivate(
            file, madeFolders: [home, home.appending(path: "offline")], root: root, umask: mask)
    }

    @Test(arguments: umasks) func diskCacheEntriesTheirKeyAndTheirFolders(umask mask: mode_t) async throws {
        // Given a disk cache in folders that do not exist yet
        let root = try Self.root()
        defer { try? FileManager.default.removeItem(at: root) }
        let outer = root.appending(path: "caches")
        let folder = outer.appending(path: "api")
        let server = InMemoryDispatcher()
        server.stub(
            .get, "https://api.test/items",
            response: .status(200, headers: ["Cache-Control": "max-age=60"], body: Data("items".utf8)))

        // When the store opens the folder and stores an answer under the umask
        try await Self.withUmask(mask) {
            _ = try await server.caching(DiskCacheStore(directory: folder)).dispatch(
                .get("https://api.test/items"))
        }

        // Then the entry, the key and both folders are private
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let entry = try #require(names.first { $0.hasSuffix(".cacheentry") })
        #expect(names == [entry, "digest.key"].sorted())
        Self.expectPrivate(
            folder.appending(path: entry), madeFolders: [outer, folder], root: root, umask: mask)
        Self.expectPrivate(folder.appending(path: "digest.key"), madeFolders: [], root: root, umask: mask)
    }

    @Test(arguments: umasks) func cassettesRecordingsAndFlightRecordings(umask mask: mode_t) async throws {
        // Given a cassette that was readable by everyone, and folders that do not exist yet
        let root = try Self.root()
        defer { try? FileManager.default.removeItem(at: root) }
        let archive = cassette([exchange("GET", "https://api.test/a", answer: "a")])
        let existing = root.appending(path: "old.har")
        try archive.write(to: existing)
        chmod(existing.path, 0o644)
        let written = root.appending(path: "Cassettes/Suite/written.har")
        let recorded = root.appending(path: "Recordings/recorded.har")
        let report = root.appending(path: "Reports/Today/last-requests.har")
        let upstream = InMemoryDispatcher()
        upstream.stub(.get, "/a", response: .text("a"))
        let recorder = FlightRecorder()

        // When each kind of file is written under the umask
        try await Self.withUmask(mask) {
            try archive.write(to: existing)
            try archive.write(to: written)
            let replay = ReplayDispatcher(
                cassette: recorded, baseURL: URL(string: "https://api.test"), mode: .newEpisodes,
                upstream: upstream, configuration: testConfiguration())
            _ = try await replay.dispatch(.get("/a"))
            _ = try await upstream.flightRecording(into: recorder).dispatch(.get("/a"))
            try recorder.write(to: report)
        }

        // Then every file is private, and so is every folder made for one
        Self.expectPrivate(existing, madeFolders: [], root: root, umask: mask)
        let cassettes = root.appending(path: "Cassettes")
        Self.expectPrivate(
            written, madeFolders: [cassettes, cassettes.appending(path: "Suite")], root: root, umask: mask)
        Self.expectPrivate(
            recorded, madeFolders: [root.appending(path: "Recordings")], root: root, umask: mask)
        let reports = root.appending(path: "Reports")
        Self.expectPrivate(
            report, madeFolders: [reports, reports.appending(path: "Today")], root: root, umask: mask)
    }

    @Test func aFolderThatWasThereKeepsItsModeAndTheFileInItIsPrivate() async throws {
        // Given the user's own folder, open to the group, holding the token file's folder
        let root = try Self.root()
        defer { try? FileManager.default.removeItem(at: root) }
        let shared = root.appending(path: "shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: false)
        chmod(shared.path, 0o770)

        // When tokens are written into it
        let file = shared.appending(path: "tokens.json")
        try await FileTokenStorage(url: file).write(TokenPair(accessToken: "a"))

        // Then the file is private, and the folder is as the user left it
        #expect(Self.mode(file) == 0o600)
        #expect(Self.mode(shared) == 0o770)
    }
}
