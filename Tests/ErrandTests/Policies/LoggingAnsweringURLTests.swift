import Errand
import ErrandPolicies
import Foundation
import Testing

/// The secrets of the URL that answered (after a redirect, its own query and user info) are
/// hidden in the answer's log entry, as flight recordings and cassettes hide them.
@Suite struct LoggingAnsweringURLTests {
    /// Answers from `url`, with a body that echoes it as httpbin's `/anything` does.
    struct AnsweringFrom: NetworkDispatcher {
        let url: URL
        let status: Int

        func dispatch(
            request: RequestData, onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
            onError: @escaping @Sendable (NetworkError) -> Void
        ) -> any Cancellable {
            let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            let args = Dictionary(query.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
            let body =
                (try? JSONSerialization.data(withJSONObject: ["url": url.absoluteString, "args": args]))
            onSuccess(
                NetworkResponse(
                    statusCode: status,
                    headers: ["Content-Type": "application/json", "X-Echo": url.absoluteString],
                    body: body ?? Data(), url: url, request: request))
            return CancellableAction.none
        }
    }

    static let target = "https://u%0Aser:PassW0rd77@h.example/anything/files/1?api_key=KLIVE7&key=AIzaLIVE6"

    @Test(arguments: [LogLevel.headers, .body])
    func theSecretsOfTheURLThatAnsweredAreHidden(level: LogLevel) async throws {
        // Given a server reached by a redirect to a URL with its own credentials, echoing it
        let url = try #require(URL(string: Self.target))
        let sink = CapturingSink()
        let dispatcher = AnsweringFrom(url: url, status: 200).logging(to: sink, level: level)

        // When a request without secrets is sent
        _ = try await dispatcher.dispatch(.get("https://h.example/start"))

        // Then the answer's entry shows none of the URL's secret values
        let all = sink.texts.joined(separator: "\n")
        for secret in ["KLIVE7", "AIzaLIVE6", "PassW0rd77"] { #expect(!all.contains(secret), "\(all)") }
        #expect(all.contains("<redacted>"))
    }

    @Test func theSecretsOfTheURLThatAnsweredAreHiddenInAFailure() async throws {
        // Given a redirect target that answers 500 and echoes its URL
        let url = try #require(URL(string: Self.target))
        let sink = CapturingSink()
        let dispatcher = AnsweringFrom(url: url, status: 500).logging(to: sink, level: .body)

        // When a request is sent
        _ = try? await dispatcher.dispatch(.get("https://h.example/start"))

        // Then the failure's entry hides them too
        let all = sink.texts.joined(separator: "\n")
        for secret in ["KLIVE7", "AIzaLIVE6", "PassW0rd77"] { #expect(!all.contains(secret), "\(all)") }
    }
}
