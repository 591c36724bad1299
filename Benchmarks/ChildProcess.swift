import Foundation

/// The one place the benchmark starts a program: its scenarios and memory workloads run in
/// child processes of this executable, and the report asks `git` and `swift` for versions.
///
/// `Process` exists only on macOS and Linux; elsewhere (an iOS build of the package) every
/// call throws, and `main` says the benchmark runs on macOS and Linux only.
enum ChildProcess {
    /// Whether child processes can be started on this platform.
    static var isSupported: Bool {
        #if os(macOS) || os(Linux)
            true
        #else
            false
        #endif
    }

    /// Runs `executable` with `arguments` to its end.
    ///
    /// - Parameters:
    ///   - captures: Whether to read its standard output; when `false` it goes nowhere.
    ///   - quiet: Whether its standard error goes nowhere rather than to this process's.
    /// - Returns: Its exit status and what it wrote to standard output.
    static func run(
        _ executable: URL, _ arguments: [String], captures: Bool = true, quiet: Bool = false
    ) throws -> (status: Int32, output: Data) {
        #if os(macOS) || os(Linux)
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = captures ? pipe : FileHandle.nullDevice
            if quiet { process.standardError = FileHandle.nullDevice }
            try process.run()
            let output = captures ? pipe.fileHandleForReading.readDataToEndOfFile() : Data()
            process.waitUntilExit()
            return (process.terminationStatus, output)
        #else
            throw BenchmarkError("child processes need macOS or Linux")
        #endif
    }
}
