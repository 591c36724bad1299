import Foundation

/// This benchmark's executable, for the child processes it starts: one per scenario, and the
/// memory scenario's workloads.
enum OwnExecutable {
    static func url() throws -> URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        guard let url = Bundle.main.executableURL else {
            throw BenchmarkError("cannot find this executable to start a child process")
        }
        return url
    }
}
