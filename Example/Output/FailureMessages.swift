import Errand
import Foundation

/// Turns a `NetworkError` into what the person at the terminal needs to read.
enum FailureMessages {
    /// The message for `error`, in the words of the command that failed.
    ///
    /// - Parameters:
    ///   - error: The failure.
    ///   - environment: Where the request went, to name the server or the recordings.
    ///   - notFound: What to say for a 404, such as "there is no product 9999".
    static func failure(
        _ error: NetworkError, environment: NetworkEnvironment, notFound: String? = nil
    ) -> ExampleFailure {
        ExampleFailure(message: message(error, environment: environment, notFound: notFound), status: 1)
    }

    private static func message(_ error: NetworkError, environment: NetworkEnvironment, notFound: String?)
        -> String
    {
        let said = serverMessage(error).map { " (the server said: \($0))" } ?? ""
        switch error.code {
        case .unacceptableStatus where error.statusCode == 404 && notFound != nil:
            return "error: \(notFound ?? "")\(said)"
        case .unacceptableStatus:
            return "error: \(error.userMessage) Status \(error.statusCode ?? 0)\(said)"
        case .sessionExpired:
            return "error: not logged in, or the session has ended. Run `login <user> <password>` first."
        case .unmatchedRequest:
            let request = error.request.map { "\($0.method.rawValue) \($0.path)" } ?? "this request"
            return """
                error: the offline recordings do not cover this command (\(request) has no recording).
                Run it against a server with `--live <url>` (start one with scripts/example-server),
                or add it to the recordings with `--record --live <url>`.
                """
        case .transport, .timedOut:
            return
                "error: cannot reach the \(environment.name) server at \(environment.baseURL.absoluteString). "
                + "\(error.userMessage)\nStart one with scripts/example-server, or run offline without --live."
        case .cassette:
            return "error: the recordings cannot be read: \(error.message)"
        case .tokenStorage:
            return "error: the stored sign-in cannot be read or written: \(error.message)"
        default:
            return "error: \(error.userMessage) \(error.message)"
        }
    }

    /// The `message` of the server's JSON error body, when it sent one.
    static func serverMessage(_ error: NetworkError) -> String? {
        guard let body = error.response?.body, !body.isEmpty else { return nil }
        return (try? JSONDecoder().decode(ServerMessage.self, from: body))?.message
    }
}
