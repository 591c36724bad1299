import Foundation

// `swift run Example` plays a short tour against the recordings in Example/Recordings;
// `swift run Example help` lists the commands and the options (--live <url>, --record, --verbose).

@MainActor
func main() async -> Int32 {
    let environment = ProcessInfo.processInfo.environment
    do {
        let invocation = try Invocation(parsing: Array(CommandLine.arguments.dropFirst()))
        let app = try App(invocation, processEnvironment: environment)
        switch app.environment.kind {
        case .recordings:
            Console.note("[\(app.environment.name): answers from the recordings in Example/Recordings]")
        case .server:
            let recording = invocation.record ? ", recording into Example/Recordings" : ""
            Console.note("[\(app.environment.name): \(app.environment.baseURL.absoluteString)\(recording)]")
        }
        try await CommandRunner(app: app).run(invocation.command)
        return 0
    } catch let failure as ExampleFailure {
        Console.note(failure.message)
        return failure.status
    } catch {
        Console.note("error: \(error)")
        return 1
    }
}

exit(await main())
