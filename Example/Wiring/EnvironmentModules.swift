import Errand
import ErrandDI
import Foundation

extension DI.Name {
    /// The innermost dispatcher: recordings or URLSession, beneath every policy.
    static let transport = DI.Name("transport")
}

/// The offline environment: the shipped recordings answer, nothing reaches the network.
struct OfflineModule: DIModule {
    let recordings: Recordings

    func register(in di: DI.Registrar) {
        di.registerSingleton(NetworkEnvironment.self, instance: .offline)
        di.register((any NetworkDispatcher).self, name: .transport, scope: .singleton) { _ in
            recordings.dispatcher()
        }
    }
}

/// The staging environment: a server named by `ERRAND_EXAMPLE_STAGING_URL`.
struct StagingModule: DIModule {
    let baseURL: URL

    func register(in di: DI.Registrar) {
        di.registerSingleton(NetworkEnvironment.self, instance: .staging(baseURL))
        di.register((any NetworkDispatcher).self, name: .transport, scope: .singleton) { _ in
            URLSessionDispatcher(baseURL: baseURL, timeout: 10)
        }
    }
}

/// The live environment: the server given with `--live <url>`; with `recordingTo`, every
/// exchange is also written to the recordings (`--record`).
struct LiveModule: DIModule {
    let baseURL: URL
    var recordingTo: Recordings?

    func register(in di: DI.Registrar) {
        di.registerSingleton(NetworkEnvironment.self, instance: .live(baseURL))
        di.register((any NetworkDispatcher).self, name: .transport, scope: .singleton) { _ in
            let server = URLSessionDispatcher(baseURL: baseURL, timeout: 10)
            guard let recordingTo else { return server }
            return recordingTo.dispatcher(recordingThrough: server)
        }
    }
}
