import Foundation
import Testing

/// Runs the built `Example` binary as a person would, and reports what it printed.
///
/// The binary sits next to the test bundle in the build products directory, where
/// `swift build --build-tests` (and so `swift test`) leaves every product of the package.
struct ExampleProcess: Sendable {
    /// What one run printed and how it ended.
    struct Outcome: Sendable {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The folder that holds the signed-in session, fresh for each test.
    let home: URL

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent(
            "errand-example-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    /// The repository's root, found from this file's path.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The shipped recordings.
    static let recordings = repository.appendingPathComponent("Example/Recordings", isDirectory: true)

    /// The `Example` executable in the build products directory.
    static func binary() throws -> URL {
        let folders =
            [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
            + Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        let found = folders.map { $0.appendingPathComponent("Example") }.first {
            FileManager.default.isExecutableFile(atPath: $0.path)
        }
        return try #require(
            found, "Example is not built next to the tests (looked in \(folders)); run swift build")
    }

    /// Runs `Example` with `arguments` and waits for it to end, on a thread of its own: a test
    /// that blocked a thread of the cooperative pool for the seconds a run takes would hold up
    /// every other test waiting for that pool (two such tests hold all of it on two cores).
    func run(_ arguments: [String]) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try self.runBlocking(arguments) })
            }
        }
    }

    private func runBlocking(_ arguments: [String]) throws -> Outcome {
        let process = Process()
        process.executableURL = try Self.binary()
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["ERRAND_EXAMPLE_HOME"] = home.path
        environment["NO_PROXY"] = "127.0.0.1,localhost"
        environment["no_proxy"] = "127.0.0.1,localhost"
        environment.removeValue(forKey: "ERRAND_EXAMPLE_REPLAY_MODE")
        process.environment = environment
        let out = home.appendingPathComponent("stdout-\(UUID().uuidString)")
        let err = home.appendingPathComponent("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            stdout: try String(contentsOf: out, encoding: .utf8),
            stderr: try String(contentsOf: err, encoding: .utf8))
    }
}

/// The demo catalog API of `Example/Server`, started on a free loopback port for one test.
final class DemoServer {
    let url: String
    private let process: Process

    init() throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-u",
            ExampleProcess.repository.appendingPathComponent("Example/Server/catalog_server.py").path,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The server's first line is "URL http://127.0.0.1:<port>", printed once it listens.
        var text = ""
        while !text.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let line = text.split(separator: "\n").first.map(String.init) ?? ""
        guard line.hasPrefix("URL ") else {
            kill(process.processIdentifier, SIGKILL)
            throw DemoServerError(output: text)
        }
        url = String(line.dropFirst(4))
    }

    deinit {
        // SIGKILL, not terminate(): a child of the test runner inherits its blocked SIGTERM.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// The demo server did not start.
struct DemoServerError: Error, CustomStringConvertible {
    let output: String
    var description: String { "the demo server did not print its URL; it printed: \(output)" }
}
