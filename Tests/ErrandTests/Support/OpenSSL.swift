import Foundation

/// Runs `openssl` pipelines through `/bin/sh`, for tests that check our crypto against it.
enum OpenSSL {
    /// Whether `openssl` is on the path.
    static let isAvailable: Bool = (try? run("command -v openssl")).map { !$0.isEmpty } ?? false

    /// Thrown when a pipeline fails.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `script` in `directory` and returns its standard output, trimmed.
    @discardableResult
    static func run(_ script: String, in directory: URL? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "`\(script)` exited with \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A fresh temporary folder.
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "errand-pins-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
