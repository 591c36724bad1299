import Errand
import ErrandSync
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Errand request for a payload, written as an app would write it.
struct GetPayload<Payload: BenchmarkPayload>: RequestType {
    typealias ResponseType = Payload

    var data: RequestData { RequestData(path: Payload.path) }
}

/// The baseline: what an app writes with no library, a `URLSession` data task and a `JSONDecoder`.
///
/// Its session is configured as `URLSessionDispatcher`'s own (ephemeral, no URL cache, no cookies), and it
/// sends the same `Accept` header, plus any `headers` the Errand side adds through its policies
/// (a bearer token, a user agent), so both put the same bytes on the wire.
final class RawClient: Sendable {
    private let session: URLSession
    private let decoder = JSONDecoder()
    private let baseURL: URL
    private let headers: [(name: String, value: String)]
    /// Whether this client made the session, and so invalidates it (never `URLSession.shared`).
    private let ownsSession: Bool

    init(baseURL: URL, headers: [(name: String, value: String)] = []) {
        session = URLSession(configuration: URLSessionDispatcher.defaultConfiguration())
        self.baseURL = baseURL
        self.headers = headers
        ownsSession = true
    }

    /// A client on a session as an app makes one without a library: `URLSession.shared`, or
    /// `URLSession(configuration: .default)` (then `owned`, and invalidated with the client).
    init(baseURL: URL, session: URLSession, owned: Bool) {
        self.session = session
        self.baseURL = baseURL
        headers = []
        ownsSession = owned
    }

    deinit {
        if ownsSession { session.finishTasksAndInvalidate() }
    }

    /// The URL of a payload on the server.
    func url<Payload: BenchmarkPayload>(of type: Payload.Type) -> URL {
        baseURL.appending(path: Payload.fileName)
    }

    /// Fetches the payload at `url`, decodes it, and reports its checksum.
    func fetch<Payload: BenchmarkPayload>(
        _ type: Payload.Type, from url: URL, done: @escaping @Sendable (Result<Int, any Error>) -> Void
    ) {
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        for header in headers { request.setValue(header.value, forHTTPHeaderField: header.name) }
        let decoder = decoder
        session.dataTask(with: request) { data, response, error in
            if let error {
                done(.failure(error))
                return
            }
            guard let status = (response as? HTTPURLResponse)?.statusCode, (200..<300).contains(status),
                let data
            else {
                done(.failure(BenchmarkError("\(url) did not answer 2xx with a body")))
                return
            }
            do {
                done(.success(try decoder.decode(Payload.self, from: data).checksum))
            } catch {
                done(.failure(error))
            }
        }
        .resume()
    }

    /// The raw bytes at `url`, to check the server serves what the benchmark generated.
    func bytes(at url: URL) async throws -> Data {
        let (data, response) = try await session.data(from: url)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw BenchmarkError("\(url) did not answer 200")
        }
        return data
    }
}

/// A raw `URLSession` whose tasks are delegate-driven, as an app writes it to see each chunk as
/// it arrives (to stop a body over a size limit): the floor of any transport that streams.
///
/// Beside ``RawClient`` (a completion handler, the whole body handed over once), it shows what
/// FoundationNetworking's delegate path costs by itself: three delegate events per request
/// instead of one, with no library in between.
final class RawStreamingClient: Sendable {
    /// The session's delegate: each task's body as it comes, and what to call at its end.
    private final class Delegate: NSObject, URLSessionDataDelegate, Sendable {
        struct Transfer {
            var body = Data()
            let done: @Sendable (Result<Data, any Error>) -> Void
        }

        let transfers = Locked<[Int: Transfer]>([:])

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            transfers.withLock { $0[dataTask.taskIdentifier]?.body.append(data) }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?)
        {
            guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else {
                return
            }
            if let error { return transfer.done(.failure(error)) }
            guard let status = (task.response as? HTTPURLResponse)?.statusCode, (200..<300).contains(status)
            else {
                return transfer.done(
                    .failure(
                        BenchmarkError(
                            "\(task.originalRequest?.url?.absoluteString ?? "") did not answer 2xx")))
            }
            transfer.done(.success(transfer.body))
        }
    }

    private let delegate = Delegate()
    private let session: URLSession
    private let decoder = JSONDecoder()

    init() {
        session = URLSession(
            configuration: URLSessionDispatcher.defaultConfiguration(), delegate: delegate, delegateQueue: nil
        )
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Fetches the payload at `url` through delegate events, decodes it, and reports its checksum.
    func fetch<Payload: BenchmarkPayload>(
        _ type: Payload.Type, from url: URL, done: @escaping @Sendable (Result<Int, any Error>) -> Void
    ) {
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let task = session.dataTask(with: request)
        let decoder = decoder
        delegate.transfers.withLock {
            $0[task.taskIdentifier] = Delegate.Transfer { outcome in
                done(
                    outcome.flatMap { body in Result { try decoder.decode(Payload.self, from: body).checksum }
                    })
            }
        }
        task.resume()
    }
}
