import Foundation

extension ReplayDispatcher {
    /// Where a test's cassette goes: next to the test file, in `Cassettes/<suite>/<name>.har`.
    ///
    /// ```swift
    /// @Suite struct UserAPITests {
    ///     @Test func fetchesUsers() async throws {
    ///         // …/Tests/AppTests/Cassettes/UserAPITests/fetchesUsers.har
    ///         let cassette = ReplayDispatcher.cassetteURL(suite: Self.self)
    ///     }
    /// }
    /// ```
    ///
    /// The cassettes live in the source tree, where they are committed, rather than in the
    /// test bundle. Characters that do not belong in a file name are replaced by `-`.
    ///
    /// - Parameters:
    ///   - name: The cassette's name; the calling function's name by default, without its
    ///     parameter list.
    ///   - suite: The test suite, whose name names the folder.
    ///   - filePath: The test file; the caller's by default.
    /// - Returns: The cassette's location; the file and folders may not exist yet.
    public static func cassetteURL(
        _ name: String = #function, suite: Any.Type, filePath: String = #filePath
    ) -> URL {
        cassetteURL(name, suite: String(describing: suite), filePath: filePath)
    }

    /// Where a test's cassette goes, with the suite named by a string.
    ///
    /// - Parameters:
    ///   - name: The cassette's name; the calling function's name by default.
    ///   - suite: The folder's name, usually the test suite's.
    ///   - filePath: The test file; the caller's by default.
    /// - Returns: `<folder of filePath>/Cassettes/<suite>/<name>.har`.
    public static func cassetteURL(_ name: String = #function, suite: String, filePath: String = #filePath)
        -> URL
    {
        var base = name
        if let parenthesis = base.firstIndex(of: "(") { base = String(base[..<parenthesis]) }
        if base.hasSuffix(".har") { base.removeLast(4) }
        return URL(fileURLWithPath: filePath).deletingLastPathComponent()
            .appendingPathComponent("Cassettes", isDirectory: true)
            .appendingPathComponent(fileName(suite), isDirectory: true)
            .appendingPathComponent(fileName(base) + ".har")
    }

    private static func fileName(_ text: String) -> String {
        let safe = String(
            text.map { character -> Character in
                character.isASCII && (character.isLetter || character.isNumber || "._-".contains(character))
                    ? character : "-"
            })
        return safe.isEmpty || safe.allSatisfy({ $0 == "." }) ? "cassette" : safe
    }
}
