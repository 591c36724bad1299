import Errand
import Foundation
import Testing

@Suite struct ReadmeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The Swift blocks of README.md, except the `Package.swift` snippet and the ErrandDI sample
    /// (which `ErrandDITests.READMETests` type-checks on its own, in a module of its own).
    static func readmeBlocks() throws -> [[String]] {
        let readme = try String(contentsOf: root.appending(path: "README.md"), encoding: .utf8)
        var blocks: [[String]] = []
        var current: [String]?
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line.hasPrefix("```swift") {
                current = []
            } else if line.hasPrefix("```"), let block = current {
                blocks.append(block)
                current = nil
            } else {
                current?.append(String(line))
            }
        }
        return blocks.filter { !$0.contains("// Package.swift") && !$0.contains("import ErrandDI") }
    }

    /// Lines without indentation, blank lines or imports, so indentation inside functions does
    /// not matter, and the samples file can import every module the README's blocks use.
    static func normalized(_ lines: [String]) -> [String] {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty && !$0.hasPrefix("import ")
        }
    }

    /// The files that compile the README's samples: this target's, and ErrandState's (its
    /// section needs `ErrandState` and `ErrandDI`, whose samples would clash with these names).
    static let sampleFiles = [
        "Tests/ErrandReadmeTests/ReadmeSamples.swift", "Tests/ErrandStateTests/ReadmeSamples.swift",
    ]

    @Test func everySwiftSampleInTheReadmeIsCompiledHere() throws {
        let sampleFiles = try Self.sampleFiles.map { path in
            Self.normalized(
                try String(contentsOf: Self.root.appending(path: path), encoding: .utf8)
                    .components(separatedBy: "\n"))
        }
        let blocks = try Self.readmeBlocks()
        #expect(blocks.count >= 5)
        for block in blocks {
            let lines = Self.normalized(block)
            let found = sampleFiles.contains { sampleLines in
                sampleLines.count >= lines.count
                    && (0...(sampleLines.count - lines.count)).contains { start in
                        Array(sampleLines[start..<start + lines.count]) == lines
                    }
            }
            #expect(
                found,
                "README block not found verbatim in a samples file:\n\(block.joined(separator: "\n"))")
        }
    }

    @Test func theTestingSampleRunsAsWritten() async throws {
        try await ReadmeSamples.testing()
    }

    @Test func theCurlSampleMakesTheCommandItShows() throws {
        let command = try ReadmeSamples.curl()
        #expect(
            command
                == "curl -X 'POST' 'https://api.example.com/login' -H 'Content-Type: application/x-www-form-urlencoded; charset=utf-8' --data-raw 'user=ann&password=%3Credacted%3E'"
        )
    }

    @Test func theErrorSampleHandlesAnUnmatchedRequest() async {
        await ReadmeSamples.handlingErrors(dispatcher: InMemoryDispatcher())
    }

    @Test func theCatchingSampleCatchesA404() async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/users", response: .status(404))
        try await ReadmeSamples.catchingInTests(dispatcher: dispatcher)
    }
}
