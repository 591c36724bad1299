import ErrandTestSupport
import Foundation

/// Type-checks a snippet of Swift against the built ErrandDI module, for checks that only the
/// compiler can make (isolation, `Sendable`, typed qualifiers).
///
/// It needs `swiftc` on `PATH` and the `Modules` folder next to the test bundle, as `swift test`
/// leaves them; tests that use it are disabled, with the reason, when either is missing.
enum CompilerProbe {
    /// The compiler's diagnostics and whether it accepted the snippet.
    struct Outcome {
        let succeeded: Bool
        let diagnostics: String

        /// The error lines the compiler reported for `line` of the snippet.
        func errors(atLine line: Int) -> [String] {
            diagnostics.split(separator: "\n")
                .filter { $0.contains("snippet.swift:\(line):") && $0.contains("error:") }
                .map(String.init)
        }
    }

    /// The `swiftc` on `PATH`, if any.
    static let compiler: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent("swiftc") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// The folder holding `ErrandDI.swiftmodule`, next to the running test bundle.
    static let modules: URL? = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let modules = bundle.appendingPathComponent("Modules")
        let module = modules.appendingPathComponent("ErrandDI.swiftmodule")
        return FileManager.default.fileExists(atPath: module.path) ? modules : nil
    }()

    /// Whether snippets can be checked here.
    static var isAvailable: Bool {
        compiler != nil && modules != nil
    }

    /// Type-checks `source` in Swift 6 mode against ErrandDI, as a library file (no top-level code).
    static func typecheck(_ source: String) throws -> Outcome {
        guard let compiler, let modules else {
            throw CocoaError(.fileNoSuchFile)
        }
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("ErrandDIProbe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("snippet.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = compiler
        process.arguments = [
            "-typecheck", "-parse-as-library", "-swift-version", "6", "-I", modules.path, file.path,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            succeeded: process.terminationStatus == 0,
            diagnostics: String(decoding: data, as: UTF8.self)
        )
    }
}
