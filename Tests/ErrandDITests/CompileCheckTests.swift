import ErrandTestSupport
import Testing

/// Checks that the compiler, not the run time, rejects misuse of the API.
@Suite(CompilerProbe.needs("ErrandDI"))
struct CompileCheckTests {
    @Test func correctMainActorUseCompiles() async throws {
        let outcome = try await CompilerProbe.typecheck(
            """
            import ErrandDI

            @MainActor final class ViewModel { init() {} }

            @MainActor func onMainActor() throws {
                let container = DI { di in
                    di.registerMainActor(ViewModel.self) { _ in ViewModel() }
                    di.register(Int.self, name: .answer, scope: .singleton) { _ in 42 }
                }
                _ = try container.resolveOnMainActor(ViewModel.self)
                _ = try container.resolveThrowing(Int.self, name: .answer)
            }

            @MainActor struct MainActorOwner {
                @HiltViewModel(ViewModel.self) var viewModel
            }

            extension DI.Name {
                static let answer = DI.Name("answer")
            }
            """
        )

        #expect(outcome.succeeded, "\(outcome.diagnostics)")
    }

    @Test func misuseIsACompileError() async throws {
        // Each line marked below must be rejected by the compiler with the given message.
        let source = """
            import ErrandDI

            @MainActor final class ViewModel { init() {} }
            final class NotSendable {}

            func offMainActor(_ container: DI) throws {
                _ = try container.resolveOnMainActor(ViewModel.self)
            }

            func mainActorFactoryOffMainActor() {
                _ = DI { di in di.register(ViewModel.self) { _ in ViewModel() } }
            }

            struct NonisolatedOwner {
                @HiltViewModel(ViewModel.self) var viewModel
            }

            func stringQualifier(_ container: DI) throws {
                _ = try container.resolveThrowing(Int.self, name: "primary")
            }

            func sharedNonSendableValue() {
                _ = DI { di in di.register(NotSendable.self, scope: .singleton) { _ in NotSendable() } }
            }
            """
        let expected: [(line: Int, message: String)] = [
            (7, "call to main actor-isolated instance method 'resolveOnMainActor(_:name:)'"),
            (11, "call to main actor-isolated initializer 'init()' in a synchronous nonisolated context"),
            (14, "cannot be both nonisolated and main actor-isolated"),
            (19, "cannot convert value of type 'String' to expected argument type 'DI.Name'"),
            (23, "type 'NotSendable' does not conform to the 'Sendable' protocol"),
        ]

        let outcome = try await CompilerProbe.typecheck(source)

        #expect(!outcome.succeeded)
        for (line, message) in expected {
            #expect(
                outcome.errors(atLine: line).contains { $0.contains(message) },
                "line \(line) should fail with “\(message)”; diagnostics:\n\(outcome.diagnostics)"
            )
        }
    }
}
