import Foundation
import Testing

/// Compiles a snippet of Swift against the package's built modules, for checks that only the
/// compiler can make: isolation, `Sendable`, typed qualifiers, and code the compiler must not
/// crash on.
///
/// It needs `swiftc` on `PATH` and the `Modules` folder next to the test bundle, as `swift test`
/// leaves them. Suites that use it take the ``needs(_:)`` trait: when either is missing they
/// are skipped with the reason, except under `scripts/test`, where they fail.
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

    /// The `Modules` folder where `swift build` put the package's modules, beside the running
    /// test binary.
    ///
    /// The test binary is found three ways, as platforms differ: on Linux `swift test` runs the
    /// `.xctest` executable itself (`CommandLine.arguments[0]`); on macOS it runs a runner from
    /// the toolchain that loads the `.xctest` bundle (found among the loaded bundles, or in the
    /// runner's arguments), whose binary sits three folders deeper.
    package static let modules: URL? = searchedFolders.first { folder in
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder)
            && isFolder.boolValue
    }

    /// The folders where ``modules`` looks, in order.
    static let searchedFolders: [URL] = {
        let bundles = (Bundle.allBundles + [Bundle(for: BundleMarker.self)]).map(\.bundleURL.path)
        return modulesFolders(
            forTestBinaries: CommandLine.arguments.prefix(1) + bundles + CommandLine.arguments)
    }()

    /// The `Modules` folders beside the `.xctest` bundles named by `paths` (the bundle, or a
    /// file inside it), in order; then the folder beside the first path, as a last resort.
    package static func modulesFolders(forTestBinaries paths: [String]) -> [URL] {
        var folders: [URL] = []
        func add(_ folder: URL) {
            if !folders.contains(folder) { folders.append(folder) }
        }
        for path in paths {
            // `…/debug/Foo.xctest` (a file on Linux, a bundle on macOS) or a path inside one.
            let path = URL(fileURLWithPath: path).standardizedFileURL.path
            guard let range = path.range(of: ".xctest/", options: .backwards) ?? suffixRange(path) else {
                continue
            }
            let bundle = URL(fileURLWithPath: String(path[..<range.lowerBound]) + ".xctest")
            add(bundle.deletingLastPathComponent().appendingPathComponent("Modules"))
        }
        if let first = paths.first {
            add(URL(fileURLWithPath: first).deletingLastPathComponent().appendingPathComponent("Modules"))
        }
        return folders
    }

    private static func suffixRange(_ path: String) -> Range<String.Index>? {
        path.hasSuffix(".xctest") ? path.range(of: ".xctest", options: .backwards) : nil
    }

    /// Why snippets importing `modules` cannot be compiled here, or `nil` when they can.
    package static func unavailability(of modules: [String]) -> String? {
        guard compiler != nil else { return "swiftc is not on PATH" }
        guard let folder = self.modules else {
            let searched = searchedFolders.map(\.path).joined(separator: ", ")
            return "no Modules folder of the built package was found (looked in \(searched))"
        }
        let missing = modules.filter {
            !FileManager.default.fileExists(atPath: folder.appendingPathComponent("\($0).swiftmodule").path)
        }
        guard missing.isEmpty else {
            return "\(folder.path) holds no \(missing.joined(separator: ", ")) module"
        }
        return nil
    }

    /// Whether snippets importing `module` (such as `"Errand"`) can be compiled here.
    package static func isAvailable(_ module: String) -> Bool {
        unavailability(of: [module]) == nil
    }

    /// Whether the probe must work: `scripts/test` sets `ERRAND_REQUIRE_COMPILER=1`, so that a
    /// probe that cannot find the compiler or the modules fails its tests instead of skipping
    /// them.
    package static let isRequired = ProcessInfo.processInfo.environment["ERRAND_REQUIRE_COMPILER"] == "1"

    /// The trait for a suite that compiles snippets importing `modules`: enabled when they can
    /// be compiled or must be; otherwise skipped, with the reason in the test report.
    package static func needs(_ modules: String...) -> ConditionTrait {
        let reason = unavailability(of: modules)
        return .enabled(
            if: reason == nil || isRequired,
            Comment(
                rawValue: reason.map { "skipped: \($0)" } ?? "compiles snippets against the built modules"))
    }

    /// The built modules, or an error that fails the test, with the reason they are missing.
    package static func requireModules(_ modules: String...) throws -> URL {
        guard unavailability(of: modules) == nil, let folder = self.modules else {
            throw Unavailable(reason: unavailability(of: modules) ?? "the modules are missing")
        }
        return folder
    }

    /// Thrown when the probe is required but cannot compile here.
    package struct Unavailable: Error, CustomStringConvertible {
        /// Why.
        package let reason: String
        package var description: String { "the compiler probe cannot run: \(reason)" }
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
            throw Unavailable(reason: unavailability(of: []) ?? "the modules are missing")
        }
        oneAtATime.wait()
        defer { oneAtATime.signal() }
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("ErrandProbe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("snippet.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)

        let mode =
            switch stage {
            case .typecheck: ["-typecheck", "-parse-as-library"]
            case .sil:
                ["-emit-sil", "-parse-as-library", "-o", folder.appendingPathComponent("snippet.sil").path]
            }
        return try run(compiler, mode + ["-swift-version", "6", "-I", modules.path, file.path])
    }

    /// Runs `compiler` with `arguments` and collects what it printed.
    package static func run(_ compiler: URL, _ arguments: [String]) throws -> Outcome {
        #if os(macOS) || os(Linux)
            let process = Process()
            process.executableURL = compiler
            process.arguments = arguments
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
        #else
            throw Unavailable(reason: "the compiler runs only on macOS and Linux")
        #endif
    }
}

/// A class of this module, for `Bundle(for:)`: the bundle that holds the running tests.
private final class BundleMarker {}
