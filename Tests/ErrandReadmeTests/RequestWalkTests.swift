import Foundation
import Testing

/// The walk of one request on Errand's landing page ("How a request travels") names the files a
/// request passes through: each must still exist in `Sources/Errand`, so that a change to the
/// transport that removes or renames one updates the walk with it.
@Suite struct RequestWalkTests {
    /// The landing page's section, from its heading to the next one.
    static func walk() throws -> String {
        let page = try String(
            contentsOf: ArticleSampleTests.root.appending(path: "Sources/Errand/Errand.docc/Errand.md"),
            encoding: .utf8)
        let start = try #require(page.range(of: "## How a request travels\n"))
        let rest = page[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
    }

    /// The `Name.swift` files the text names, in order of first mention.
    static func namedFiles(in text: String) -> [String] {
        var names: [String] = []
        for piece in text.components(separatedBy: "`").enumerated() where piece.offset % 2 == 1 {
            if piece.element.hasSuffix(".swift"), !names.contains(piece.element) {
                names.append(piece.element)
            }
        }
        return names
    }

    /// Every Swift file of `Sources/Errand`, by name.
    static func sourceFiles() -> Set<String> {
        let folder = ArticleSampleTests.root.appending(path: "Sources/Errand")
        let paths = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        return Set(paths.filter { $0.hasSuffix(".swift") }.map { URL(fileURLWithPath: $0).lastPathComponent })
    }

    @Test func theWalkNamesOnlyFilesThatExist() throws {
        // Given the walk on the landing page
        let walk = try Self.walk()
        let named = Self.namedFiles(in: walk)

        // When its files are looked up in the sources
        let missing = named.filter { !Self.sourceFiles().contains($0) }

        // Then it names the transport's files, and each one exists
        #expect(named.count >= 10, "the walk names \(named.count) files: \(named)")
        #expect(named.first == "RequestType+Execute.swift")
        #expect(missing.isEmpty, "the walk names files that are gone: \(missing)")
        // and the count it states is the count of the files it names
        #expect(
            walk.contains(", \(named.count) when the URL is resolved"), "the walk names \(named.count) files")
    }

    @Test func aNameInTheWalkIsFoundOnlyWhenWrittenAsCode() {
        // Given text that mentions files in code spans and in plain words
        let text = "First `A.swift`, then B.swift in prose, `C.swift` and `A.swift` again; `NotAFile`."

        // When the named files are read
        let named = Self.namedFiles(in: text)

        // Then only the code spans count, once each, in order
        #expect(named == ["A.swift", "C.swift"])
    }
}
