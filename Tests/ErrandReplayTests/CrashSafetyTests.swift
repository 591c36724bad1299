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

/// A writer killed with SIGKILL at random moments leaves each file it was replacing whole:
/// a cassette, the file token store and the disk cache, 200 kills each. What a kill leaves
/// beside a file (a temporary file, holding tokens for the token file) does not outlive the next
/// write of it nor the opening of its store, and no refresh token survives a sign-out.
///
/// The writer is the `ErrandCrashWriter` executable (`Tests/CrashWriter`), built beside the tests.
/// It writes the three files round after round, printing a `ready` line after each file; the test
/// kills it after a random number of those lines and a random number of yields, so the kill lands
/// in the middle of any of the three writes, then reads every file back.
@Suite struct CrashSafetyTests {
    static let kills = 200

    @Test func killedWritersLeaveEveryFileWholeAndReadable() async throws {
        // Given the writer and a folder that keeps its files from one kill to the next
        let writer = try #require(
            Self.writerURL(), "ErrandCrashWriter is built with `swift build --build-tests`")
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "errand-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var random = SeededRandom(seed: 0x00E7_7A2D)
        var leftBehind = 0

        for kill in 1...Self.kills {
            // When it is killed at a random moment
            let lines = Int.random(in: 1...6, using: &random)
            let yields = Int.random(in: 0..<400, using: &random)
            // Off the cooperative pool: each run blocks its thread until the writer is killed.
            try await offPool {
                Result { try Self.run(writer, in: folder, killingAfter: lines, yields: yields) }
            }
            .get()

            // Then what the kill left is gone once the next write happened or the store opened,
            // and each file is one whole version that was written
            leftBehind += Self.expectNoLeftovers(folder, after: kill)
            try await Self.expectWhole(folder, after: kill)
        }

        // And when the user signs out, no file in the folder holds a refresh token
        try await FileTokenStorage(url: folder.appending(path: "tokens.json")).clear()
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let url = folder.appending(path: name)
            guard !url.hasDirectoryPath, let data = try? Data(contentsOf: url) else { continue }
            #expect(!String(decoding: data, as: UTF8.self).contains("refresh-"), "\(name)")
        }
        // (The kills did land mid-write: a check that never met a leftover would prove nothing.)
        #expect(leftBehind > 0)
    }

    /// Checks that at most the kill's own temporary file is beside the cassette (the writer's next
    /// write deletes it) and that opening the token storage and the disk cache deletes theirs;
    /// returns how many temporary files the kill left.
    static func expectNoLeftovers(_ folder: URL, after kill: Int) -> Int {
        // The temporary files in `folder`: those of `file`, or all of them.
        func temporaries(in folder: URL, of file: String? = nil) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
                .filter { $0.hasPrefix(".\(file.map { "\($0)." } ?? "")") && $0.hasSuffix(".tmp") }
        }
        let cache = folder.appending(path: "cache")
        let left = [
            temporaries(in: folder, of: "cassette.har"), temporaries(in: folder, of: "tokens.json"),
            temporaries(in: cache),
        ]
        #expect(left[0].count <= 1, "kill \(kill): \(left[0])")
        _ = FileTokenStorage(url: folder.appending(path: "tokens.json"))
        #expect(temporaries(in: folder, of: "tokens.json").isEmpty, "kill \(kill)")
        _ = DiskCacheStore(directory: cache)
        #expect(temporaries(in: cache).isEmpty, "kill \(kill)")
        let key = try? Data(contentsOf: cache.appending(path: "digest.key"))
        #expect(key == nil || key?.count == 32, "kill \(kill): the cache's key")
        return left.reduce(0) { $0 + $1.count }
    }

    /// Starts the writer, waits for `lines` "ready" lines, yields `yields` times, kills it.
    static func run(_ writer: URL, in folder: URL, killingAfter lines: Int, yields: Int) throws {
        let process = Process()
        process.executableURL = writer
        process.arguments = [folder.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var seen = ""
        while seen.components(separatedBy: "ready ").count - 1 < lines {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }  // the writer ended on its own: the checks say why
            seen += String(decoding: chunk, as: UTF8.self)
        }
        for _ in 0..<yields { sched_yield() }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? output.fileHandleForReading.close()
    }

    /// Reads back the three files and checks each is exactly some version `N`.
    static func expectWhole(_ folder: URL, after kill: Int) async throws {
        let har = try HAR(contentsOf: folder.appending(path: "cassette.har"))
        let text = try #require(har.entries.first?.response.content.text, "kill \(kill): cassette")
        #expect(har.entries.count == 1)
        #expect(text == CrashVersion.text(try #require(version(in: text, after: "version "))), "kill \(kill)")

        let tokens = try #require(
            try await FileTokenStorage(url: folder.appending(path: "tokens.json")).read(),
            "kill \(kill): tokens")
        let number = try #require(version(in: tokens.accessToken, after: "access-"), "kill \(kill)")
        #expect(tokens == CrashVersion.tokens(number), "kill \(kill)")

        let cached = DiskCacheStore(directory: folder.appending(path: "cache")).responses(
            for: CrashVersion.cacheKey)
        let body = String(
            decoding: try #require(cached.first, "kill \(kill): cache entry").body, as: UTF8.self)
        #expect(cached.count == 1)
        #expect(body == CrashVersion.text(try #require(version(in: body, after: "version "))), "kill \(kill)")
    }

    /// The number that follows `prefix` at the start of `text`.
    static func version(in text: String, after prefix: String) -> Int? {
        guard text.hasPrefix(prefix) else { return nil }
        return Int(text.dropFirst(prefix.count).prefix { $0.isNumber })
    }

    /// The writer, in the build products folder beside this test bundle's resources.
    static func writerURL() -> URL? {
        let candidates = [
            Bundle.module.bundleURL.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL,
        ]
        return candidates.map { $0.appending(path: "ErrandCrashWriter") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}

/// What version `number` of each file holds: the same definitions as the writer's
/// (`Tests/CrashWriter/CrashWriter.swift`), which is a separate program.
enum CrashVersion {
    static func text(_ number: Int) -> String {
        let size = 200 + (number &* 7_919) % 16_000
        let letter = Character(UnicodeScalar(UInt8(97 + number % 26)))
        return "version \(number) " + String(repeating: letter, count: size)
    }

    static func tokens(_ number: Int) -> TokenPair {
        TokenPair(
            accessToken: "access-\(number)-" + String(text(number).suffix(number % 3_000)),
            refreshToken: "refresh-\(number)", expiresAt: Date(timeIntervalSince1970: Double(number)))
    }

    static let cacheKey = "GET https://crash.example/cached"
}

/// SplitMix64: the same kill moments on every run.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
