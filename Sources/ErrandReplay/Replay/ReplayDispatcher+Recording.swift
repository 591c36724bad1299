import Dispatch
import Errand
import Foundation

extension ReplayDispatcher {
    /// Sends `request` upstream, records what comes back, writes the cassette, and delivers.
    ///
    /// A response of any status is recorded; a transport failure or a timeout is recorded as
    /// status `0`; a cancellation or any other failure is delivered without being recorded.
    /// When the cassette cannot be written, the request fails and the file is left as it was.
    func record(
        _ request: RequestData, _ recorded: HAR.Request,
        onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        guard let upstream = recordingUpstream else {
            onError(
                NetworkError(
                    code: .cassette, message: "No upstream to record through.", request: request))
            return CancellableAction.none
        }
        let configuration = configuration
        let baseURL = baseURL
        return PolicyCall.start(request: request, onSuccess: onSuccess, onError: onError) {
            () async throws(NetworkError) -> NetworkResponse in
            let started = configuration.now()
            let (result, duration) = await Self.timed(on: configuration.clock) {
                () async -> Result<NetworkResponse, NetworkError> in
                do throws(NetworkError) {
                    return .success(try await upstream.response(for: request))
                } catch {
                    return .failure(error)
                }
            }
            switch result {
            case .success(let response):
                let recording = Recording(
                    harRequest: try Recording.harRequest(resolving: request, against: baseURL),
                    response: response, startedDateTime: started, duration: duration)
                try await self.persist(recording.entry, for: request)
                return response
            case .failure(let error):
                guard Recording.records(error), !Task.isCancelled else { throw error }
                let recording = Recording(
                    harRequest: try Recording.harRequest(resolving: request, against: baseURL),
                    failure: error, startedDateTime: started, duration: duration)
                try await self.persist(recording.entry, for: request)
                throw error
            }
        }
    }

    /// Stores a recording on the dispatcher's writer queue, so that encoding and flushing a
    /// large cassette never hold up a thread of the concurrency pool.
    func persist(_ entry: HAR.Entry, for request: RequestData) async throws(NetworkError) {
        let result: Result<Void, NetworkError> = await withCheckedContinuation { continuation in
            writer.async {
                do throws(NetworkError) {
                    try self.store(entry, for: request)
                    continuation.resume(returning: .success(()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        try result.get()
    }

    /// Adds a recording to the cassette and writes the file; on failure the recording is
    /// dropped again and the file stays as it was.
    func store(_ entry: HAR.Entry, for request: RequestData) throws(NetworkError) {
        let cassette = cassette
        let redaction = configuration.redaction
        let failure = state.withLock { state -> NetworkError? in
            state.append(entry)
            do throws(CassetteWriteFailure) {
                try Self.write(
                    HAR(log: state.log), to: cassette, redaction: redaction,
                    secrets: state.index.redactor.secrets)
                return nil
            } catch {
                state.removeLast()
                var redactor = HARRedactor(redaction)
                let shown = "\(entry.request.method) \(redactor.redact(url: entry.request.url))"
                return NetworkError(
                    code: .cassette,
                    message: "The recording of \(shown) was not written to the cassette \(cassette.path): "
                        + "\(error.reason) The cassette was left as it was.",
                    request: request,
                    underlyingError: error.harError)
            }
        }
        if let failure { throw failure }
    }

    /// Why a cassette was not written.
    struct CassetteWriteFailure: Error {
        let reason: String
        let harError: HARError?
    }

    /// Redacts, encodes, scans and atomically writes a cassette.
    static func write(_ har: HAR, to url: URL, redaction: HAR.Redaction, secrets: Set<String>)
        throws(CassetteWriteFailure)
    {
        var redactor = HARRedactor(redaction)
        let data: Data
        do {
            data = try HARJSONSerializer.serialize(redactor.redact(har).harJSON)
        } catch {
            throw CassetteWriteFailure(reason: "\(error)", harError: error)
        }
        // Echoes of redacted values are hidden in place; one in base64 cannot be, so the
        // write is refused, naming where it is but never the value.
        let scan = HARSecretScan.clean(
            data, secrets: secrets.union(redactor.secrets), placeholder: redaction.placeholder)
        if let leak = scan.leak {
            let entry = leak.entryIndex.map { ", entry \($0)" } ?? ""
            let field = leak.field.map { ", field \($0)" } ?? ""
            throw CassetteWriteFailure(
                reason: "a value that was redacted elsewhere in this session appears base64-encoded at line "
                    + "\(leak.line)\(entry)\(field), where it cannot be replaced exactly. A server that "
                    + "echoes a request puts secrets where redaction does not look; add the key or header it "
                    + "appears under to configuration.redaction.vocabulary.",
                harError: nil)
        }
        do {
            try HARFileWriter.write(scan.data, to: url)
        } catch {
            throw CassetteWriteFailure(reason: "\(error)", harError: error)
        }
    }

    /// Runs `operation` and measures how long it took on `clock`.
    static func timed<C: Clock<Duration>, Value>(
        on clock: C, _ operation: () async -> Value
    ) async -> (Value, Duration) {
        let start = clock.now
        let value = await operation()
        return (value, start.duration(to: clock.now))
    }
}
