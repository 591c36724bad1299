import ErrandTestSupport
import Testing

/// The ways users catch `NetworkError` compile, without crashing the compiler, against the
/// real Errand and ErrandReplay modules.
///
/// With `throws(NetworkError)` on the public API, Swift 6.3.1 crashed in SIL ownership
/// verification ("Found outside of lifetime use") on `catch let error as NetworkError` (or
/// `catch is NetworkError`) followed by an `#expect` or `#require` of a call, such as
/// `#expect(error.message.contains("GET"))`. Each file below is compiled once.
@Suite(CompilerProbe.needs("Errand", "ErrandReplay"))
struct CatchPatternCompileTests {
    @Test func swiftTestingCatchPatternsCompile() async throws {
        // Given tests that catch each public throwing call the ways Swift Testing users write
        let source = CatchPatternSnippets.swiftTesting

        // When they are compiled as far as SIL
        let outcome = try await CompilerProbe.compile(source, to: .sil)

        // Then the compiler accepts them, and does not crash
        #expect(!outcome.crashed, "the compiler crashed:\n\(outcome.diagnostics)")
        #expect(outcome.succeeded, "\(outcome.diagnostics)")
    }

    @Test func catchPatternsInFunctionsAndClosuresCompile() async throws {
        // Given plain functions and closures that catch NetworkError
        let source = CatchPatternSnippets.plainCode

        // When they are compiled as far as SIL
        let outcome = try await CompilerProbe.compile(source, to: .sil)

        // Then the compiler accepts them
        #expect(!outcome.crashed, "the compiler crashed:\n\(outcome.diagnostics)")
        #expect(outcome.succeeded, "\(outcome.diagnostics)")
    }

    @Test func xcTestCatchPatternsCompile() async throws {
        // Given XCTest cases that catch NetworkError
        let source = CatchPatternSnippets.xcTest

        // When they are compiled as far as SIL
        let outcome = try await CompilerProbe.compile(source, to: .sil)

        // Then the compiler accepts them
        #expect(!outcome.crashed, "the compiler crashed:\n\(outcome.diagnostics)")
        #expect(outcome.succeeded, "\(outcome.diagnostics)")
    }

    @Test func theTwoPatternsTheREADMEAdvisesAgainstAreRefusedClearly() async throws {
        // Given code that reads `code` off an uncast error, and a cast that leaves a
        // non-throwing function without a last `catch`
        let source =
            CatchPatternSnippets.prelude + """
                func uncast() async {
                    do { _ = try await GetText().execute(dispatcher: dispatcher) } catch { _ = error.code }
                }
                func notExhaustive() async {
                    do { _ = try await GetText().execute(dispatcher: dispatcher) } catch let error as NetworkError { _ = error }
                }
                """
        let prelude = CatchPatternSnippets.prelude.split(separator: "\n", omittingEmptySubsequences: false)

        // When it is type-checked
        let outcome = try await CompilerProbe.typecheck(source)

        // Then each is an ordinary error at its line, as the README's table says
        #expect(!outcome.succeeded && !outcome.crashed, "\(outcome.diagnostics)")
        #expect(
            outcome.errors(atLine: prelude.count + 1).contains { $0.contains("has no member 'code'") },
            "\(outcome.diagnostics)")
        #expect(
            outcome.errors(atLine: prelude.count + 4).contains { $0.contains("not exhaustive") },
            "\(outcome.diagnostics)")
    }
}
