import ErrandTestSupport
import Foundation
import Testing

/// Type-checks the Swift samples of every DocC page (`Sources/<Module>/<Module>.docc/*.md`), so
/// the articles cannot drift from the API.
///
/// A page's samples are compiled together, as one `main.swift` (top-level code allowed) that
/// imports every module but `ErrandPolicies`, after a few declarations the page assumes the
/// reader has, such as the `User` type. A page whose samples use a policy shows
/// `import ErrandPolicies` itself, as a reader's file needs it: the policies are a product of
/// their own. SwiftUI samples are compiled only where SwiftUI exists.
@Suite(CompilerProbe.needs("Errand", "ErrandPolicies", "ErrandReplay", "ErrandDI", "ErrandState"))
struct ArticleSampleTests {
    /// The package root, three folders above this file.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The modules with a DocC catalog.
    static let modules = ["Errand", "ErrandPolicies", "ErrandReplay", "ErrandDI", "ErrandState"]

    /// The modules every page's samples are compiled with, imported or not: all but the
    /// policies, which a page imports in its own samples.
    static let implicitImports = modules.filter { $0 != "ErrandPolicies" }

    /// Every page of every catalog, as `Module/File.md`.
    static func pages() -> [String] {
        modules.flatMap { module in
            let catalog = root.appending(path: "Sources/\(module)/\(module).docc")
            let files = (try? FileManager.default.contentsOfDirectory(atPath: catalog.path)) ?? []
            return files.filter { $0.hasSuffix(".md") }.sorted().map { "\(module)/\($0)" }
        }
    }

    /// The Swift code blocks of a page, without SwiftUI ones where SwiftUI does not exist.
    static func swiftBlocks(of page: String) throws -> [String] {
        let module = String(page.prefix { $0 != "/" })
        let file = root.appending(
            path: "Sources/\(module)/\(module).docc/\(page.dropFirst(module.count + 1))")
        let text = try String(contentsOf: file, encoding: .utf8)
        let blocks = text.components(separatedBy: "```swift\n").dropFirst().compactMap { block in
            block.components(separatedBy: "```").first
        }
        #if canImport(SwiftUI)
            return blocks
        #else
            return blocks.filter { !$0.contains(": View") }
        #endif
    }

    @Test func everyCatalogHasPagesWithSamples() throws {
        // Given the catalogs' pages
        let pages = Self.pages()

        // Then each module has a landing page, and most pages show code
        for module in Self.modules {
            #expect(pages.contains("\(module)/\(module).md"), "no landing page for \(module)")
        }
        let withSamples = try pages.filter { try !Self.swiftBlocks(of: $0).isEmpty }
        #expect(withSamples.count >= 10)
    }

    @Test(arguments: pages())
    func samplesOfThePageTypeCheck(page: String) async throws {
        // Given the page's samples after what they assume
        let blocks = try Self.swiftBlocks(of: page)
        try #require(
            !blocks.isEmpty || Self.pagesWithoutSamples.contains(page), "\(page) has no Swift sample")
        let imports = (Self.implicitImports + ["Foundation", "Observation", "Testing"]).map {
            "import \($0)\n"
        }
        let source = imports.joined() + (Self.assumed[page] ?? "") + "\n" + blocks.joined(separator: "\n")

        // When they are type-checked as one main file
        let outcome = try await Self.typecheckMain(source)

        // Then the compiler accepts them
        #expect(outcome.succeeded, "\(page):\n\(outcome.diagnostics)\n--- source ---\n\(source)")
    }

    /// Pages that show no code by design.
    static let pagesWithoutSamples: Set<String> = []

    /// Type-checks `source` as the `main.swift` of an executable, against the built modules.
    static func typecheckMain(_ source: String) async throws -> (succeeded: Bool, diagnostics: String) {
        let compiler = try #require(CompilerProbe.compiler)
        let modules = try CompilerProbe.requireModules(
            "Errand", "ErrandPolicies", "ErrandReplay", "ErrandDI", "ErrandState")
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "ErrandArticle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: "main.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        // The compiler runs for seconds: wait for it on a thread of its own, off the pool.
        let outcome = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Result {
                        try CompilerProbe.run(
                            compiler, ["-typecheck", "-swift-version", "6", "-I", modules.path, file.path])
                    })
            }
        }
        return (outcome.succeeded, outcome.diagnostics)
    }
}
