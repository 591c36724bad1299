import Errand
import ErrandReplay
import Foundation

/// `errand-verify`: parses the command line, verifies the cassette, prints the report and
/// gives the exit status.
enum VerifyCommand {
    /// No breaking change.
    static let passed: Int32 = 0
    /// A breaking change, as `--fail-on` defines it.
    static let breaking: Int32 = 1
    /// A usage or cassette error.
    static let unusable: Int32 = 2

    /// Runs the command with the arguments after the program's name.
    static func run(_ commandLine: [String]) async -> Int32 {
        let arguments: VerifyArguments
        do throws(VerifyArguments.UsageError) {
            arguments = try VerifyArguments(commandLine)
        } catch {
            write(
                "errand-verify: \(error.message)\nRun errand-verify --help for the options.",
                to: .standardError)
            return unusable
        }
        if arguments.showsHelp {
            write(VerifyArguments.usage, to: .standardOutput)
            return passed
        }
        guard let cassette = arguments.cassette else { return unusable }
        do {
            let verifier = try CassetteVerifier(
                cassette: cassette, dispatcher: URLSessionDispatcher(), options: arguments.options)
            let report = await verifier.verify()
            write(report.text(breakingFor: arguments.failOn), to: .standardOutput)
            return report.isBreaking(for: arguments.failOn) ? breaking : passed
        } catch {
            // The message alone: the description repeats it with the underlying error's dump.
            let message = (error as? NetworkError)?.message ?? "\(error)"
            write("errand-verify: \(EscapedText.line(message))", to: .standardError)
            return unusable
        }
    }

    private static func write(_ text: String, to handle: FileHandle) {
        handle.write(Data((text + "\n").utf8))
    }
}
