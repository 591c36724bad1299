import Errand
import ErrandReplay
import ErrandSync
import Foundation
import Testing

/// An upstream that must never be called: it records a test failure and fails the request.
///
/// Replay tests use it to prove that nothing reaches the network.
final class ForbiddenUpstream: NetworkDispatcher {
    private let calls = Locked(0)

    /// How many requests reached it.
    var callCount: Int { calls.withLock { $0 } }

    func dispatch(
        request: RequestData, onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        calls.withLock { $0 += 1 }
        Issue.record("the upstream was called with \(request): replay must not reach the network")
        onError(
            NetworkError(code: .transport, message: "The forbidden upstream was called.", request: request))
        return CancellableAction.none
    }
}

/// The base URL of the in-memory upstream's recordings.
let testBaseURL = URL(string: "https://api.example.com") ?? URL(fileURLWithPath: "/")

/// An archive of entries answering `GET`s of the given paths with the given bodies, in order.
func archive(_ exchanges: [(method: String, url: String, status: Int, body: String)]) -> HAR {
    let entries = exchanges.enumerated().map { index, exchange in
        HAR.Entry(
            startedDateTime: Date(timeIntervalSince1970: 1_700_000_000 + Double(index)),
            time: 10,
            request: HAR.Request(method: exchange.method, url: exchange.url),
            response: HAR.Response(
                status: exchange.status, headers: [HAR.Header(name: "Content-Type", value: "text/plain")],
                content: HAR.Content(body: Data(exchange.body.utf8), mimeType: "text/plain"))
        )
    }
    return HAR(creator: HAR.Creator(name: "test", version: "1"), entries: entries)
}

extension NetworkDispatcher {
    /// The body of the response to `request` as text, or the error's code and message.
    func text(_ request: RequestData) async -> String {
        do {
            return try await dispatch(request).text
        } catch let error as NetworkError {
            return "error \(error.code): \(error.message)"
        } catch {
            return "error \(error)"
        }
    }
}
