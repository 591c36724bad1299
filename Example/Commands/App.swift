import Errand
import ErrandDI
import ErrandPolicies
import Foundation

/// The app: the container for the chosen environment, and the screens the commands use.
@MainActor
struct App {
    let environment: NetworkEnvironment
    let dispatcher: any NetworkDispatcher
    let storage: any TokenStorage
    let clock: ExampleClock
    /// Whether the exchanges are being recorded (`--record`).
    let records: Bool

    /// Wires the app for `invocation`: one environment module, and the shared stack.
    init(_ invocation: Invocation, processEnvironment: [String: String]) throws {
        let home =
            processEnvironment["ERRAND_EXAMPLE_HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            // NSHomeDirectory: the user's home on macOS and Linux, the app's container elsewhere.
            ?? URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true).appendingPathComponent(
                ".errand-example")
        let recordings = Recordings(directory: invocation.recordings ?? Recordings.shipped)
        let environmentModule: any DIModule
        if let url = invocation.liveURL {
            environmentModule = LiveModule(baseURL: url, recordingTo: invocation.record ? recordings : nil)
        } else if invocation.staging {
            guard let text = processEnvironment["ERRAND_EXAMPLE_STAGING_URL"], let url = URL(string: text)
            else {
                throw ExampleFailure.usage(
                    "error: --staging needs ERRAND_EXAMPLE_STAGING_URL set to the server's URL")
            }
            environmentModule = StagingModule(baseURL: url)
        } else {
            environmentModule = OfflineModule(recordings: recordings)
        }
        records = invocation.record
        let settings = AppSettings(
            verbose: invocation.verbose, home: home, sessionInMemory: invocation.command == .tour)
        let di = DI(name: "Example", modules: [environmentModule, StackModule(settings: settings)])
        do {
            environment = try di.resolveThrowing(NetworkEnvironment.self)
            dispatcher = try di.resolveThrowing((any NetworkDispatcher).self)
            storage = try di.resolveThrowing((any TokenStorage).self)
            clock = try di.resolveThrowing(ExampleClock.self)
        } catch {
            throw ExampleFailure(message: "error: the app's wiring is incomplete: \(error)", status: 70)
        }
    }

    /// A session screen over the storage the auth policy reads: the home folder for commands,
    /// memory for the tour.
    func sessionScreen() -> SessionScreen {
        SessionScreen(dispatcher: dispatcher, storage: storage, clock: clock)
    }

    /// Runs `body`, turning a `NetworkError` into the message for the person at the terminal.
    func reporting<T>(notFound: String? = nil, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as NetworkError {
            throw FailureMessages.failure(error, environment: environment, notFound: notFound)
        }
    }
}
