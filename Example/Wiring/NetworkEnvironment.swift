import Foundation

/// Where the app's requests go: a name, a base URL and a kind, chosen once at start-up.
///
/// Nothing else in the app names a host: requests carry paths, and the environment's module
/// builds the dispatcher that resolves them.
struct NetworkEnvironment: Hashable, Sendable {
    /// How requests are answered.
    enum Kind: String, Hashable, Sendable {
        /// From the recordings in `Example/Recordings`; no network.
        case recordings
        /// By a server.
        case server
    }

    let name: String
    let baseURL: URL
    let kind: Kind

    /// Replays the recordings shipped in the repository.
    static var offline: NetworkEnvironment {
        NetworkEnvironment(name: "offline", baseURL: recordedHost, kind: .recordings)
    }

    /// A staging server, whose URL comes from `ERRAND_EXAMPLE_STAGING_URL`.
    static func staging(_ baseURL: URL) -> NetworkEnvironment {
        NetworkEnvironment(name: "staging", baseURL: baseURL, kind: .server)
    }

    /// The server given with `--live <url>`.
    static func live(_ baseURL: URL) -> NetworkEnvironment {
        NetworkEnvironment(name: "live", baseURL: baseURL, kind: .server)
    }

    /// The host the recordings are filed under, `https://catalog.example`: whatever server
    /// they were recorded from, they replay under this one name. It never resolves (`.example`
    /// is reserved), so a request that escaped replay could reach nothing.
    static var recordedHost: URL {
        var components = URLComponents()
        components.scheme = "https"
        components.host = "catalog.example"
        return components.url ?? URL(fileURLWithPath: "/")
    }
}
