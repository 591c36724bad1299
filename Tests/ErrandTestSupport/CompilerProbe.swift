import Foundation

/// Compiles a snippet of Swift against the package's built modules, for checks that only the
/// compiler can make: isolation, `Sendable`, typed qualifiers, and code the compiler must not
/// crash on.
///
/// It needs `swiftc` on `PATH` and the `Modules` folder next to the test bundle, as `swift test`
/// leaves them; tests that use it are disabled, with the reason, when either is missing.
package enum CompilerProbe {
    /// How far the snippet is compiled.
    package enum Stage: Sendable {
        /// Parse and type-check only: fast, and enough for misuse that must be an error.
        case typecheck
        /// Also generate SIL and run the mandatory passes, where ownership verification runs
        /// (and where a compiler crash on valid code shows up).
        case sil
    }

    /// The compiler's diagnostics and whether it accepted the snippet.
    package struct Outcome: Sendable {
        /// Whether the compiler exited with status 0.
        package let succeeded: Bool
        /// Everything the compiler printed.
        package let diagnostics: String

        /// Whether the compiler itself crashed, rather than rejecting the code.
        package var crashed: Bool {
            diagnostics.contains("fatal error encountered during compilation")
                || diagnostics.contains("Stack dump:")
                || diagnostics.contains("compile command failed due to signal")
        }

        /// The error lines the compiler reported for `line` of the snippet.
        package func errors(atLine line: Int) -> [String] {
            diagnostics.split(separator: "\n")
                .filter { $0.contains("snippet.swift:\(line):") && $0.contains("error:") }
                .map(String.init)
        }
    }

    /// The `swiftc` on `PATH`, if any.
    package static let compiler: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent("swiftc") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// The `Modules` folder next to the running test bundle, where `swift build` puts the
    /// package's modules.
    package static let modules: URL? = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let modules = bundle.appendingPathComponent("Modules")
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: modules.path, isDirectory: &isFolder)
        return exists && isFolder.boolValue ? modules : nil
    }()

    /// Whether snippets importing `module` (such as `"Errand"`) can be compiled here.
    package static func isAvailable(_ module: String) -> Bool {
        guard compiler != nil, let modules else { return false }
        let file = modules.appendingPathComponent("\(module).swiftmodule")
        return FileManager.default.fileExists(atPath: file.path)
    }

    /// Type-checks `source` in Swift 6 mode against the built modules, as a library file (no
    /// top-level code).
    package static func typecheck(_ source: String) async throws -> Outcome {
        try await compile(source, to: .typecheck)
    }

    /// Compiles `source` in Swift 6 mode against the built modules, as a library file, as far
    /// as `stage`. Nothing is written but diagnostics.
    package static func compile(_ source: String, to stage: Stage) async throws -> Outcome {
        // The compiler runs for seconds: wait for it off the cooperative pool.
        try await offPool { Result { try compileBlocking(source, to: stage) } }.get()
    }

    /// Lets one compiler run at a time: a few at once, at the start of a parallel run, take every
    /// core for seconds, and the tests beside them that wait on the network stall past their
    /// deadlines.
    private static let oneAtATime = DispatchSemaphore(value: 1)

    private static func compileBlocking(_ source: String, to stage: Stage) throws -> Outcome {
        guard let compiler, let modules else {
            throw CocoaError(.fileNoSuchFile)
        }
        oneAtATime.wait()
        defer { oneAtATime.signal() }
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("ErrandProbe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("snippet.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = compiler
        let mode =
            switch stage {
            case .typecheck: ["-typecheck"]
            case .sil: ["-emit-sil", "-o", folder.appendingPathComponent("snippet.sil").path]
            }
        process.arguments =
            mode + ["-parse-as-library", "-swift-version", "6", "-I", modules.path, file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            succeeded: process.terminationStatus == 0 && process.terminationReason == .exit,
            diagnostics: String(decoding: data, as: UTF8.self)
        )
    }
}
