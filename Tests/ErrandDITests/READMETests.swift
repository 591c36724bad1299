import ErrandTestSupport
import Foundation
import Testing

/// Type-checks the code of the README's "Dependency injection" section, so it cannot rot.
@Suite(
    .enabled(if: CompilerProbe.isAvailable("ErrandDI"), "needs swiftc on PATH and the built ErrandDI module"))
struct READMETests {
    /// The package root, two folders above this file.
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The Swift code blocks of the "Dependency injection" section, from `README.md` if it has
    /// the section, else from `README-section.md`.
    private static func sampleCode() throws -> [String] {
        let heading = "## Dependency injection"
        let candidates = ["README.md", "README-section.md"].map { root.appendingPathComponent($0) }
        guard
            let text = candidates.lazy
                .compactMap({ try? String(contentsOf: $0, encoding: .utf8) })
                .first(where: { $0.contains(heading) }),
            let start = text.range(of: heading)
        else {
            return []
        }
        var section = text[start.upperBound...]
        if let next = section.range(of: "\n## ") {
            section = section[..<next.lowerBound]
        }
        return section.components(separatedBy: "```swift\n").dropFirst().compactMap { block in
            block.components(separatedBy: "```").first
        }
    }

    @Test func theDependencyInjectionSampleCompiles() async throws {
        let blocks = try Self.sampleCode()
        try #require(!blocks.isEmpty, "no Swift sample found under “## Dependency injection”")

        for block in blocks {
            let outcome = try await CompilerProbe.typecheck(block)
            #expect(outcome.succeeded, "\(outcome.diagnostics)")
        }
    }
}
