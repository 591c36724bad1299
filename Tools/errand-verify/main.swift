import Errand
import ErrandReplay
import Foundation

// errand-verify: checks a cassette against a live server; see VerifyArguments.usage.

func write(_ text: String, to handle: FileHandle) {
    handle.write(Data((text + "\n").utf8))
}

let arguments: VerifyArguments
do {
    arguments = try VerifyArguments(Array(CommandLine.arguments.dropFirst()))
} catch {
    write("errand-verify: \(error.message)\nRun errand-verify --help for the options.", to: .standardError)
    exit(2)
}
if arguments.showsHelp {
    write(VerifyArguments.usage, to: .standardOutput)
    exit(0)
}
guard let cassette = arguments.cassette else { exit(2) }

let headers = arguments.extraHeaders
let dispatcher = URLSessionDispatcher().intercepted(by: [
    ClosureRequestInterceptor { request in
        var request = request
        for header in headers { request.headers.set(header.name, header.value) }
        return request
    }
])
do {
    let verifier = try CassetteVerifier(
        cassette: cassette, dispatcher: dispatcher, options: arguments.options)
    let report = await verifier.verify()
    write(report.description, to: .standardOutput)
    exit(report.isBreaking(for: arguments.failOn) ? 1 : 0)
} catch {
    write("errand-verify: \(error)", to: .standardError)
    exit(2)
}
